module github.com/oath-harness/oath-harness

go 1.26.8

require (
	github.com/gofrs/flock v0.13.1
	github.com/google/uuid v1.6.0
	github.com/itchyny/gojq v0.12.20
	golang.org/x/sys v0.48.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/itchyny/timefmt-go v0.1.9 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
)
