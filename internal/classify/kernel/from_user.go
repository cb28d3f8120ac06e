package kernel

func ClipText(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
