package command

import (
	"slices"
	"strings"
)

// Args is a command's arguments split into options and operands, GNU style: options may follow
// operands, short options cluster (-rf), a short option that takes a value ends its cluster
// (-ofile, -o file), a long one takes it after "=" or, when declared, as the next word, and
// "--" ends the options.
// The maps are nil until an option is found (most commands have none, and a large script has
// thousands of commands); reading a nil map is fine, setting a value goes through SetVal.
type Args struct {
	Short    map[byte]bool
	Long     map[string]bool
	Val      map[string]Word // values of options that take one, by name ("o", "output")
	Operands []Word
	Unknown  bool // an argument could not be known statically
}

// SetVal sets the value of the option named name.
func (p *Args) SetVal(name string, w Word) {
	if p.Val == nil {
		p.Val = map[string]Word{}
	}
	p.Val[name] = w
}

// Parse splits args. short lists the short options that take a value, long the long options
// that take one as a separate word. A word that is not known statically is an operand, and
// makes Unknown true.
func Parse(args []Word, short string, long ...string) Args {
	var p Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			p.Unknown = true
			p.Operands = append(p.Operands, a)
			continue
		}
		v := a.Value
		switch {
		case v == "--":
			p.Operands = append(p.Operands, args[i+1:]...)
			for _, b := range args[i+1:] {
				if !b.Known {
					p.Unknown = true
				}
			}
			return p
		case strings.HasPrefix(v, "--") && len(v) > 2:
			name, value, has := strings.Cut(v[2:], "=")
			if p.Long == nil {
				p.Long = map[string]bool{}
			}
			p.Long[name] = true
			if has {
				p.SetVal(name, Word{Value: value, Known: true})
			} else if slices.Contains(long, name) && i+1 < len(args) {
				i++
				p.SetVal(name, args[i])
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j := 1; j < len(v); j++ {
				ch := v[j]
				if p.Short == nil {
					p.Short = map[byte]bool{}
				}
				p.Short[ch] = true
				if strings.IndexByte(short, ch) >= 0 {
					if j+1 < len(v) {
						p.SetVal(string(ch), Word{Value: v[j+1:], Known: true})
					} else if i+1 < len(args) {
						i++
						p.SetVal(string(ch), args[i])
					}
					break
				}
			}
		default:
			p.Operands = append(p.Operands, a)
		}
	}
	return p
}

// ParseStrings is Parse over an argv known statically.
func ParseStrings(args []string, short string, long ...string) Args {
	return Parse(Words(args), short, long...)
}

// Has reports whether the short option or one of the long ones was given (0: no short one).
func (p Args) Has(short byte, long ...string) bool {
	if short != 0 && p.Short[short] {
		return true
	}
	for _, l := range long {
		if p.Long[l] {
			return true
		}
	}
	return false
}

// Given reports whether the option o was given, o named as in a Spec: one letter is a short
// option, more a long one.
func (p Args) Given(o string) bool {
	if len(o) == 1 {
		return p.Short[o[0]]
	}
	return p.Long[o]
}

// Value returns the value of the first of the named options that was given one.
func (p Args) Value(names ...string) (Word, bool) {
	for _, n := range names {
		if w, ok := p.Val[n]; ok {
			return w, true
		}
	}
	return Word{}, false
}

// OptName spells an option named as in a Spec the way it is given on the command line.
func OptName(o string) string {
	if len(o) == 1 {
		return "-" + o
	}
	return "--" + o
}

// ExpandAbbrev reads abbreviated long options as programs built on git's parse-options do:
// any unambiguous prefix of a long option is the option (git reset --ha is --hard). It returns
// args with every known word --x or --x=v, where x is a proper prefix (two letters or more) of
// one of names, spelled out as the first such name; args is not changed. Only names whose
// presence makes a call more dangerous belong in names, so that an abbreviation never makes a
// call look safer than it is; an abbreviation that could stand for several of them stands for
// the first, so the most dangerous go first.
func ExpandAbbrev(args []Word, names []string) []Word {
	var out []Word
	for i, a := range args {
		if !a.Known || !strings.HasPrefix(a.Value, "--") {
			continue
		}
		if a.Value == "--" {
			break
		}
		given, value, hasValue := strings.Cut(a.Value[2:], "=")
		if len(given) < 2 || slices.Contains(names, given) {
			continue
		}
		for _, n := range names {
			if strings.HasPrefix(n, given) {
				if out == nil {
					out = slices.Clone(args)
				}
				out[i].Value = "--" + n
				if hasValue {
					out[i].Value += "=" + value
				}
				break
			}
		}
	}
	if out == nil {
		return args
	}
	return out
}
