// Package git judges git: its subcommands (git_read, git_local, git_remote), force pushes and
// remote deletions, git config and the programs git runs from it, and what a discard or a
// history rewrite would lose.
package git
