// Package inline judges code given on a command line (python -c, node -e, awk, perl -e,
// PowerShell): what it reaches (files, processes, the network) and the catastrophes it spells.
package inline
