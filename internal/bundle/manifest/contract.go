package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Modes of a bundle (seed 003 §5.3). A strict bundle must declare evidence.required=true.
const (
	ModeStrict = "strict"
	ModeWIP    = "wip"
)

// CurrentVersion is the contract_version pack writes.
const CurrentVersion = "1"

// SupportedMajors lists the contract major versions this build can verify. Adding one means:
// a new major here, its rules behind a switch in verify, a golden bundle of that version under
// testdata, and a dated line in docs/bundle.md saying until when the old one stays supported
// (seed 003 §7). Minor versions ("1.2") are backward compatible by seed 004 and read as their major.
var SupportedMajors = []string{"1"}

// Contract is review/meta/contract.json. Unknown fields are ignored on purpose: seed 003 §5.3
// asks for the minimum checks, not a schema.
type Contract struct {
	ContractVersion string   `json:"contract_version"`
	Mode            string   `json:"mode"`
	Evidence        Evidence `json:"evidence"`
}

// Evidence says whether the bundle must carry evidence and where it lives.
type Evidence struct {
	Required   bool   `json:"required"`
	PathPrefix string `json:"path_prefix"`
}

// ContractError is a finding about contract.json; Code is contract_invalid or
// contract_version_unsupported.
type ContractError struct {
	Code   string
	Detail string
}

func (e *ContractError) Error() string { return e.Code + ": " + e.Detail }

// MaxContractBytes bounds contract.json: it is a handful of fields.
const MaxContractBytes = 1 << 20

// ParseContract decodes and checks contract.json (seed 003 §5.3, §7). The version is checked
// before anything else: under an unknown version no other field has a known meaning, so none
// is guessed at.
func ParseContract(data []byte) (Contract, *ContractError) {
	invalid := func(f string, a ...any) (Contract, *ContractError) {
		return Contract{}, &ContractError{"contract_invalid", fmt.Sprintf(f, a...)}
	}
	if len(data) > MaxContractBytes {
		return invalid("contract.json is larger than %d bytes", MaxContractBytes)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || raw == nil {
		return invalid("contract.json is not a JSON object: %v", errOrNull(err))
	}
	var c Contract
	vraw, ok := raw["contract_version"]
	if !ok {
		return invalid("contract_version is missing")
	}
	if err := json.Unmarshal(vraw, &c.ContractVersion); err != nil {
		return invalid("contract_version must be a string, got %s", vraw)
	}
	if strings.TrimSpace(c.ContractVersion) == "" {
		return invalid("contract_version is empty")
	}
	if !Supported(c.ContractVersion) {
		return Contract{ContractVersion: c.ContractVersion}, &ContractError{"contract_version_unsupported",
			fmt.Sprintf("contract_version %q is not one this verifier knows (supported: %s)", c.ContractVersion, strings.Join(SupportedMajors, ", "))}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		return invalid("contract.json: %v", err)
	}
	switch c.Mode {
	case ModeStrict, ModeWIP:
	default:
		return invalid("mode %q is not strict or wip", c.Mode)
	}
	if c.Mode == ModeStrict && !c.Evidence.Required {
		return invalid("mode strict requires evidence.required=true")
	}
	if c.Evidence.PathPrefix == "" {
		c.Evidence.PathPrefix = EvidenceDir
	}
	p := c.Evidence.PathPrefix
	if !strings.HasSuffix(p, "/") || CheckPath(strings.TrimSuffix(p, "/")) != nil || strings.HasPrefix(p, MetaDir) {
		return invalid("evidence.path_prefix %q must be a safe directory under %s ending in '/', outside %s", p, Root, MetaDir)
	}
	return c, nil
}

func errOrNull(err error) any {
	if err == nil {
		return "null"
	}
	return err
}

// Supported reports whether v names a supported major ("1") or a minor of one ("1.3").
func Supported(v string) bool {
	major, minor, hasMinor := strings.Cut(v, ".")
	if hasMinor {
		if _, err := strconv.ParseUint(minor, 10, 32); err != nil {
			return false
		}
	}
	for _, m := range SupportedMajors {
		if major == m {
			return true
		}
	}
	return false
}

// FormatContract writes contract.json as pack does: fixed key order, two-space indent, so the
// same inputs give the same bytes and the same seal.
func FormatContract(c Contract) []byte {
	b, _ := json.MarshalIndent(c, "", "  ") // a struct of strings and a bool cannot fail
	return append(b, '\n')
}
