package settings

// Classify holds the user's classification rules (owned by oath-classify; see its package doc).
type Classify struct {
	Rules []Rule `json:"rules,omitempty"`
}

// Rule is one user rule. Its shape and validation are defined by the classify issue.
type Rule struct {
	Name string `json:"name"`
}

func (c *Classify) validate() error { return nil }
