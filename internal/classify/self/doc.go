// Package self judges calls on the harness itself: running its tools and hooks, and git
// operations that would stash away or stage its files.
package self
