// Package claude holds the shapes of Claude Code's hook events and of the answers a hook gives,
// as measured on the real client (DESIGN.md "Measured facts about the host").
package claude

import "encoding/json"

// Hook event names, the value of hook_event_name.
const (
	SessionStart       = "SessionStart"
	UserPromptSubmit   = "UserPromptSubmit"
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"        // the tool succeeded
	PostToolUseFailure = "PostToolUseFailure" // the tool failed; there is no is_error on PostToolUse
	Stop               = "Stop"
	SessionEnd         = "SessionEnd"

	// Since about 2.1.290 (checked on 2.1.332; docs/permissions.md lists every event).
	PreSkillShellCommand = "PreSkillShellCommand" // a skill's or command's !`cmd` line, before it runs
	PermissionDenied     = "PermissionDenied"     // auto mode's classifier refused a call
	ConfigChange         = "ConfigChange"         // a settings file changed during the session
)

// IsPreCall reports whether an event asks for a decision before something runs: PreToolUse,
// and PreSkillShellCommand, whose tool_name (Bash) and tool_input ({command}) have PreToolUse's
// shape. An unnamed event is judged as one (stricter, never looser).
func IsPreCall(event string) bool {
	return event == PreToolUse || event == PreSkillShellCommand || event == ""
}

// Event is the part of a hook event that the oath tools read. Fields that only some events carry
// are empty on the others. ToolInput and ToolResponse stay raw: each stage decodes only what it
// needs, so a 1 MB Write passes cheaply.
type Event struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode,omitempty"`

	// SessionStart; ConfigChange (user_settings, project_settings, local_settings,
	// policy_settings, skills)
	Source   string `json:"source,omitempty"`    // startup, resume, clear, compact
	FilePath string `json:"file_path,omitempty"` // ConfigChange: the file that changed

	// UserPromptSubmit; prompt_id is on every event after the first prompt (2.1.332), the
	// prompt.id attribute of Claude Code's OpenTelemetry events.
	Prompt   string `json:"prompt,omitempty"`
	PromptID string `json:"prompt_id,omitempty"`

	// PreToolUse, PostToolUse, PostToolUseFailure
	ToolName     string          `json:"tool_name,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response,omitempty"` // PostToolUse
	Error        json.RawMessage `json:"error,omitempty"`         // PostToolUseFailure, e.g. "Exit code 1"
	IsInterrupt  bool            `json:"is_interrupt,omitempty"`  // PostToolUseFailure
	DurationMS   json.Number     `json:"duration_ms,omitempty"`

	// Stop, SessionEnd
	StopHookActive       bool   `json:"stop_hook_active,omitempty"`
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
	Reason               string `json:"reason,omitempty"` // SessionEnd; PermissionDenied: the classifier's reason
}

// IsToolEvent reports whether the event is about one tool call.
func (e *Event) IsToolEvent() bool {
	switch e.HookEventName {
	case PreToolUse, PostToolUse, PostToolUseFailure, PreSkillShellCommand, PermissionDenied:
		return true
	}
	return false
}

// Tool names of Claude Code's built-in tools. MCP tools are named mcp__<server>__<tool>.
const (
	ToolBash         = "Bash"
	ToolRead         = "Read"
	ToolWrite        = "Write"
	ToolEdit         = "Edit"
	ToolMultiEdit    = "MultiEdit"
	ToolNotebookEdit = "NotebookEdit"
	ToolGlob         = "Glob"
	ToolGrep         = "Grep"
	ToolWebFetch     = "WebFetch"
	ToolWebSearch    = "WebSearch"
)

// FileInput covers the tools that name one file: Read, Write, Edit, MultiEdit (file_path) and
// NotebookEdit (notebook_path). Content is Write's; the edits are kept raw.
type FileInput struct {
	FilePath     string          `json:"file_path,omitempty"`
	NotebookPath string          `json:"notebook_path,omitempty"`
	Content      string          `json:"content,omitempty"`
	OldString    string          `json:"old_string,omitempty"`
	NewString    string          `json:"new_string,omitempty"`
	Edits        json.RawMessage `json:"edits,omitempty"`
}

// Path is the file the tool names, whichever key carries it.
func (in *FileInput) Path() string {
	if in.FilePath != "" {
		return in.FilePath
	}
	return in.NotebookPath
}

// SearchInput is tool_input of Glob and Grep.
type SearchInput struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
}

// WebFetchInput is tool_input of WebFetch.
type WebFetchInput struct {
	URL    string `json:"url"`
	Prompt string `json:"prompt,omitempty"`
}

// Permission decisions a PreToolUse hook can answer with.
const (
	Allow = "allow" // the tool runs without Claude Code's own prompt
	Ask   = "ask"   // the human is asked (headless: the call is denied)
	Deny  = "deny"  // blocked; the reason is shown to the model
)

// HookSpecificOutput is the top-level "hookSpecificOutput" of a hook's answer. HookEventName is
// required: without it Claude Code ignores the answer.
type HookSpecificOutput struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"` // SessionStart, UserPromptSubmit
}

// PreToolUseAnswer builds the answer to a PreToolUse event.
func PreToolUseAnswer(decision, reason string) HookSpecificOutput {
	return PreCallAnswer(PreToolUse, decision, reason)
}

// PreCallAnswer builds the answer to an event of IsPreCall: PreToolUse or PreSkillShellCommand,
// whose answers have the same shape under their own hookEventName.
func PreCallAnswer(event, decision, reason string) HookSpecificOutput {
	if event == "" {
		event = PreToolUse
	}
	return HookSpecificOutput{HookEventName: event, PermissionDecision: decision, PermissionDecisionReason: reason}
}
