// Package outbound judges the channels that send data off the machine (the command table's
// Sends): curl and its kin, ssh and copies to other hosts, DNS, sockets, cloud copies, gh, git
// remotes, and what a URL or a host name can carry.
package outbound
