#!/usr/bin/env bash
# check-classify-identical.sh: does the working tree classify every event of the corpus byte for
# byte as a given revision does? A refactor of internal/classify promises no change of
# behaviour; this is the check of that promise.
#
#   scripts/check-classify-identical.sh [REV]     REV defaults to HEAD
#
# Events: every line of testdata/corpus/*.jsonl (a "cmd" is a Bash call, an "input" another
# tool's), testdata/session, testdata/replay and, when present, ../shared/corpus and
# ../shared/traces (their "_sim" key dropped). Placeholders ({P}, {H}, {HOME}, @PROJECT@, @HOME@)
# become fixed directories, made fresh for each check, so both sides see the same files. Each
# side runs every event through what oath-classify runs (envelope, settings, classify.New,
# Classify) in one process, which makes the check take seconds, not minutes.
# Exit 0 when every output is identical; otherwise the first differences are shown.
set -euo pipefail

rev=${1:-HEAD}
top=$(git rev-parse --show-toplevel)
cd "$top"
work=$(mktemp -d /tmp/oath-identical.XXXXXX)
trap 'rm -rf "$work"' EXIT

git archive "$rev" | tar -x -C "$work" --one-top-level=old
mkdir "$work/new"
git ls-files -co --exclude-standard -z | tar --null -T - -c | tar -x -C "$work/new"

driver='package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"

	"github.com/oath-harness/oath-harness/internal/classify"
	"github.com/oath-harness/oath-harness/internal/envelope"
	"github.com/oath-harness/oath-harness/internal/layout"
	"github.com/oath-harness/oath-harness/internal/settings"
)

func main() {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 64<<20)
	for in.Scan() {
		if err := one(in.Bytes(), out); err != nil {
			fmt.Fprintf(out, "error: %v\n", err)
		}
	}
}

func one(line []byte, out *bufio.Writer) error {
	env, ev, err := envelope.ReadEvent(bytes.NewReader(line))
	if err != nil {
		return err
	}
	if ev.IsToolEvent() {
		l := layout.FromEnv()
		s, err := settings.Load(l.SettingsFile())
		if err != nil {
			return err
		}
		c, err := classify.New(s, l)
		if err != nil {
			return err
		}
		if err := env.SetStage(envelope.StageClassify, c.Classify(ev)); err != nil {
			return err
		}
	}
	_, err = env.WriteTo(out)
	return err
}
'
for side in old new; do
	mkdir -p "$work/$side/cmd/zz-identical"
	printf '%s' "$driver" >"$work/$side/cmd/zz-identical/main.go"
	(cd "$work/$side" && go build -o "$work/$side.bin" ./cmd/zz-identical)
done

fix=/tmp/oath-identical-fixture
events=$work/events.jsonl
: >"$events"
for f in testdata/corpus/*.jsonl ../shared/corpus/*.jsonl; do
	[ -f "$f" ] || continue
	jq -c --arg p "$fix/project" '
		select(.tool != null) |
		{session_id: "identical", cwd: $p, hook_event_name: "PreToolUse", tool_name: .tool,
		 tool_input: (if .cmd != null then {command: .cmd} else .input end), tool_use_id: "t"}' "$f" >>"$events"
done
for f in testdata/session/*.jsonl testdata/replay/*.jsonl ../shared/traces/*.jsonl; do
	[ -f "$f" ] || continue
	jq -c --arg p "$fix/project" '
		select(.hook_event_name == "PreToolUse" or .hook_event_name == "PostToolUse" or
		       .hook_event_name == "PostToolUseFailure") |
		del(._sim) | .cwd = (.cwd // $p) | .session_id = (.session_id // "identical")' "$f" >>"$events"
done
sed -i -e "s#{P}#$fix/project#g; s#@PROJECT@#$fix/project#g; s#{HOME}#$fix/home#g" \
	-e "s#@HOME@#$fix/home#g; s#{H}#$fix/oath#g" "$events"

rm -rf "$fix"
mkdir -p "$fix/project" "$fix/home" "$fix/oath"
(cd "$fix/project" && git init -q && printf 'package main\n' >main.go && printf 'all:\n\ttrue\n' >Makefile)
for side in old new; do
	(cd "$fix/project" && HOME=$fix/home OATH_HOME=$fix/oath "$work/$side.bin" <"$events" >"$work/$side.out")
done
n=$(wc -l <"$events")
if cmp -s "$work/old.out" "$work/new.out"; then
	echo "identical: $n events ($(sha256sum <"$work/new.out" | cut -c1-12)), classify at $rev and in the working tree"
	exit 0
fi
echo "DIFFERENT ($n events; lines are events in order):"
diff "$work/old.out" "$work/new.out" | head -40
exit 1
