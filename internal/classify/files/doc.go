// Package files judges file operations: rm, chmod, cp, mv, ln, sed, dd, rsync, tar, find and
// their kin, the commands that only read, and what each would destroy or overwrite.
package files
