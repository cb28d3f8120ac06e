// Package manifest reads and writes the three files that are a review bundle's source of truth
// (seed 003 §4): review/meta/contract.json, review/meta/SHA256SUMS and its seal
// review/meta/SHA256SUMS.sha256. It does no I/O: callers hand it bytes and get bytes or findings
// back, so the same rules serve pack (which writes) and verify (which judges).
package manifest
