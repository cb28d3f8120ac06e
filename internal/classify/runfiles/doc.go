// Package runfiles judges code in files that tools run: the runners that read it (make, npm
// scripts, pytest, cargo, tox, pre-commit …, the table's Runs), the environment variables that
// carry code, and writes that plant code into such files. The two share their readers of
// config files, which is why they are one family.
package runfiles
