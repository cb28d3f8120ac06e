// Package person judges the class of calls that always needs a person (needs_person): what
// cannot be undone or reaches beyond the project, and what would be lost.
package person
