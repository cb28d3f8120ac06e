package configfile

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The INI reader reads a text as tox 4 reads tox.ini and setup.cfg: the file read by Python in
// text mode (universal newlines), then Python's configparser.ConfigParser with tox's options
// (interpolation=None; the defaults otherwise: = and : as delimiters, # and ; as prefixes of
// whole-line comments and no inline comments, empty lines kept in values, keys lowercased by
// optionxform, strict). So a value may run on over lines indented deeper than its key; a key is
// commands whether written Commands or COMMANDS, and a key ends at the first = or :.
//
// configparser refuses a text with a duplicate section or key, a line before the first section,
// a line it cannot read or a key that is empty; tox then stops with the error and runs nothing
// (its sources catch only ValueError). The reader says so (Refused) and still gives what it read,
// duplicates kept, so that a caller that judges code may judge all of it.
//
// Where Python reads otherwise than the reader could promise, the text is unread, with the
// reason, and the caller says so (a person looks): a key with a letter outside ASCII (str.lower
// has its own tables), a space other than a space or a tab where Python strips or measures
// indentation (Python counts \v, \f, \x1c-\x1f and Unicode's spaces as space), a text that is
// not UTF-8 (Python reads it by the machine's locale).

// INIFile is an INI text as configparser reads it.
type INIFile struct {
	Defaults []INIOption  // the options of [DEFAULT], which every section also has
	Sections []INISection // in the order written ([DEFAULT] apart)
	Refused  string       // why configparser refuses the text ("" when it reads it)
}

// INISection is a section: its name as written between the brackets, its options in order.
type INISection struct {
	Name    string
	Options []INIOption
}

// INIOption is one key and its value: the key lowercased, the value's lines stripped and
// joined by line breaks, with the empty lines at its end dropped.
type INIOption struct {
	Key, Value string
	Line       int // the line of its key, from 1
}

// Get is the value of key in section name, or in [DEFAULT] when the section lacks it, as
// configparser's section[key] gives it; false when the section or the key is missing.
func (f *INIFile) Get(name, key string) (string, bool) {
	for _, s := range f.Sections {
		if s.Name != name {
			continue
		}
		for _, o := range s.Options {
			if o.Key == key {
				return o.Value, true
			}
		}
		for _, o := range f.Defaults {
			if o.Key == key {
				return o.Value, true
			}
		}
		return "", false
	}
	return "", false
}

// HasSection reports a section of that name ([DEFAULT] is none, as configparser has it).
func (f *INIFile) HasSection(name string) bool {
	for _, s := range f.Sections {
		if s.Name == name {
			return true
		}
	}
	return false
}

// INI reads text as configparser reads it with tox's options; unread is why the reading may
// not be Python's ("" when it is).
func INI(text string) (f *INIFile, unread string) {
	f = &INIFile{}
	if !utf8.ValidString(text) {
		unread = "text that is not UTF-8, which Python decodes by the machine's locale"
	}
	odd := func(why string) {
		if unread == "" {
			unread = why
		}
	}
	refuse := func(why string) {
		if f.Refused == "" {
			f.Refused = why
		}
	}
	// Python in text mode reads \r\n and a lone \r as \n.
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")

	var cur *[]INIOption // the options of the current section, or nil before the first
	var lines []string   // the current option's lines
	opt := -1            // the current option's index in *cur; -1 for none (or an empty key)
	indent := 0
	sectname := ""
	seenSect := map[string]bool{}
	seenKey := map[[2]string]bool{}
	flush := func() {
		if cur != nil && opt >= 0 {
			(*cur)[opt].Value = strings.TrimRight(strings.Join(lines, "\n"), "\n")
		}
		lines = nil
	}
	ln := 0
	for line := range strings.SplitSeq(text, "\n") {
		ln++
		v := strings.Trim(line, " \t")
		if v != "" {
			if r, _ := utf8.DecodeRuneInString(v); pySpace(r) {
				odd("a space Python strips that the harness does not weigh, on line " + strconv.Itoa(ln))
			}
			if r, _ := utf8.DecodeLastRuneInString(v); pySpace(r) {
				odd("a space Python strips that the harness does not weigh, on line " + strconv.Itoa(ln))
			}
		}
		if strings.HasPrefix(v, "#") || strings.HasPrefix(v, ";") {
			continue // a comment, even inside a value: it neither ends the value nor adds to it
		}
		if v == "" {
			if opt >= 0 {
				lines = append(lines, "")
			}
			continue
		}
		ind := len(line) - len(strings.TrimLeft(line, " \t"))
		if cur != nil && opt >= 0 && ind > indent {
			lines = append(lines, v)
			continue
		}
		indent = ind
		if name, ok := iniHeader(v); ok {
			flush()
			opt, sectname = -1, name
			if name == "DEFAULT" {
				cur = &f.Defaults
				continue
			}
			if seenSect[name] {
				refuse("section [" + name + "] is written twice, on line " + strconv.Itoa(ln))
			}
			seenSect[name] = true
			f.Sections = append(f.Sections, INISection{Name: name})
			cur = &f.Sections[len(f.Sections)-1].Options
			continue
		}
		if cur == nil {
			refuse("line " + strconv.Itoa(ln) + " comes before the first section")
			f.Sections = append(f.Sections, INISection{})
			cur = &f.Sections[len(f.Sections)-1].Options
		}
		i := strings.IndexAny(v, "=:")
		if i < 0 {
			refuse("line " + strconv.Itoa(ln) + " is neither a section nor a key with a value")
			continue // the current option goes on: an indented line after it is still its own
		}
		k, val := strings.TrimRight(v[:i], " \t"), strings.TrimLeft(v[i+1:], " \t")
		if r, _ := utf8.DecodeLastRuneInString(k); pySpace(r) {
			odd("a space Python strips that the harness does not weigh, before the delimiter on line " + strconv.Itoa(ln))
		}
		if r, _ := utf8.DecodeRuneInString(val); pySpace(r) {
			odd("a space Python strips that the harness does not weigh, after the delimiter on line " + strconv.Itoa(ln))
		}
		flush()
		key := strings.ToLower(k)
		for _, r := range k {
			if r >= utf8.RuneSelf {
				odd("a key with a letter outside ASCII, which Python lowercases by its own tables, on line " + strconv.Itoa(ln))
				break
			}
		}
		if seenKey[[2]string{sectname, key}] {
			refuse("key " + key + " is written twice in [" + sectname + "], on line " + strconv.Itoa(ln))
		}
		seenKey[[2]string{sectname, key}] = true
		*cur = append(*cur, INIOption{Key: key, Line: ln})
		opt, lines = len(*cur)-1, []string{val}
		if key == "" {
			refuse("line " + strconv.Itoa(ln) + " has a value without a key")
			(*cur)[opt].Value = val
			opt = -1 // configparser goes on past it as if no option were open
		}
	}
	flush()
	return f, unread
}

// iniHeader is a section's name: configparser's \[(.+)\] from the line's start, to its last ].
func iniHeader(v string) (string, bool) {
	if v[0] != '[' {
		return "", false
	}
	j := strings.LastIndexByte(v, ']')
	if j < 2 {
		return "", false
	}
	return v[1:j], true
}

// pySpace reports a character Python counts as space (str.isspace, and \s of re) other than
// those the reader weighs itself (a space, a tab, a line break).
func pySpace(r rune) bool {
	if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}
