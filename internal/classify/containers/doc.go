// Package containers judges docker, podman, nerdctl and kubectl: mounts, privileges, the host
// they reach and what runs inside.
package containers
