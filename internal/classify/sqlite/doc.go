// Package sqlite judges sqlite3: a change of one project file git can undo, dot-commands and
// SQL functions that run programs or write files.
package sqlite
