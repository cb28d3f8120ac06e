package kernel

// containerGlobal: a global option of the engine, before the subcommand, that takes a value.
func ContainerGlobal(o string) bool {
	switch o {
	case "-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "--tlscacert", "--tlscert",
		"--tlskey", "--url", "--connection", "--root", "--runroot", "--namespace", "-n", "--address", "--storage-driver":
		return true
	}
	return false
}
