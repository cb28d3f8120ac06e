// Package kernel holds what every family of classify's rules shares: the call's Result, the
// Command under judgement, the Env (the configuration, and the Callbacks through which one
// family asks another), the take-over policy for code read from files, the rule ids and the
// protected-path model.
package kernel
