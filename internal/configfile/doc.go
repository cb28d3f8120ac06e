// Package configfile reads the config files tools run code from (YAML, TOML, JSON with
// comments, INI) as those tools' own parsers read them, or says it did not.
//
// The readers are small and bounded: enough of each syntax to find the values a tool runs,
// tolerant of what they do not know (a line they cannot read is passed over, never an error).
// Their promise is the meaning the tools' parsers give a text (PyYAML and the yaml package of
// JavaScript, Python's tomllib, JSON with comments as VS Code reads it, Python's configparser as
// tox makes it); where they cannot keep it they say so (YAML's and INI's unread reason, TOML's
// complete) and the caller reports the file as not read, so that a person looks. No
// dependency is added for them: each stage starts on every tool call, and their start-up cost
// is nothing.
package configfile
