// Package database judges database clients: sqlite3 (a change of one project file git can
// undo, dot-commands and SQL functions that run programs or write files) and the shells of
// other engines (psql, mysql, redis-cli, mongosh …), whose destructive statements are high.
package database
