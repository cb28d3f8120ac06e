package risk

import (
	"encoding/json"
	"testing"
)

func TestOrderAndValues(t *testing.T) {
	levels := []Level{Low, Medium, High, Critical}
	for i, l := range levels {
		if l.Value() != i+1 {
			t.Errorf("%s.Value() = %d, want %d", l, l.Value(), i+1)
		}
	}
	if Max(High, Low) != High || Max(Low, Critical) != Critical || Max("", Low) != Low || Max(Medium, "bogus") != Medium {
		t.Error("Max is wrong")
	}
	if Level("").Valid() || Level("LOW").Valid() {
		t.Error("only the four names are levels")
	}
}

func TestUnmarshalRefusesUnknownLevels(t *testing.T) {
	var l Level
	if err := json.Unmarshal([]byte(`"high"`), &l); err != nil || l != High {
		t.Fatalf("%v %v", l, err)
	}
	for _, bad := range []string{`"hgih"`, `3`, `null`, `""`} {
		if err := json.Unmarshal([]byte(bad), &l); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
