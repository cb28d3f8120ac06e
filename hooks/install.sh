#!/usr/bin/env bash
# install.sh installs oath-harness for Claude Code: a copy of the binaries and hooks in the user's
# data directory, registered in one settings file of Claude Code.
#
# Usage: hooks/install.sh [--scope local|project|user] [--phase NAME] [--no-sandbox]
#                          [--allow-domain DOMAIN]... [--registries] [--state-dir DIR]
#                          [--claude PATH] [PROJECT_DIR]
#        hooks/install.sh --uninstall [--purge] [--scope local|project|user] [PROJECT_DIR]
#        hooks/install.sh --doctor [PROJECT_DIR]
#   (PROJECT_DIR defaults to .)
#
# The sandbox: install turns on Claude Code's Bash sandbox in the same settings file
# (sandbox.enabled, autoAllowBashIfSandboxed: a sandboxed command runs unasked, as it can change
# nothing outside the project), with no network domain allowed (--allow-domain DOMAIN adds one,
# --registries the common package registries), reads of credentials denied inside the sandbox
# (~/.ssh, ~/.aws, ~/.config/gcloud, ~/.netrc, the project's .env files, …), writes denied to
# the harness's own files in the project (state.md, .claude/current-phase.md,
# .claude/protected-files.txt: a Makefile recipe run confined must not change the phase or the
# security mode; project and local scopes only, see hooks/sandbox.json), and a command that
# asks to run unsandboxed left to the person (allowUnsandboxedCommands: such a call goes to the
# usual permission prompt). --no-sandbox leaves the sandbox settings alone. On Linux the sandbox
# needs bubblewrap and socat (Debian: sudo apt-get install bubblewrap socat); --doctor checks.
#
# Hooks entries carry onFailure: "block" (a hook that cannot start or times out blocks the call
# instead of letting it through) when the Claude Code found (--claude PATH, else $OATH_CLAUDE,
# else claude on PATH) is 2.1.295 or later; run install again after upgrading Claude Code.
# --state-dir DIR keeps the trust state and audit trail in DIR (the hooks are given it on their
# command line; they take no location from the environment).
#
# Scopes, as Claude Code has them: local (the default) writes PROJECT_DIR/.claude/settings.local.json
# (personal, not committed); project writes PROJECT_DIR/.claude/settings.json (shared with the team);
# user writes ~/.claude/settings.json (every project).
#
# Input: the scope's settings file, if present (a JSON object); the binaries from $OATH_BIN, else
#   built with go from this checkout, else this checkout's bin/.
# Output: a few lines on stderr saying what changed, what was kept and where.
# Side effects:
#   - copies the binaries and hooks into ${XDG_DATA_HOME:-~/.local/share}/oath-harness/versions/<version>
#     and points .../oath-harness/current at it (a rename: a reinstall replaces it atomically);
#   - the settings file gains one hook per event, through .../current, each a command line that
#     exits 2 with one line when its script is missing, with an explicit timeout; every other key,
#     hook and permission stays; the file is replaced atomically; its previous content (or its
#     absence) is kept under .../oath-harness/registrations/ until --uninstall restores it;
#   - the /planning, /building, /auditing commands: in PROJECT_DIR/.claude/commands (project scope)
#     or ~/.claude/commands (local and user), unless one of that name exists;
#   - the starting phase: PROJECT_DIR/.claude/current-phase.md is set to --phase (default building)
#     unless a phase is already set there (user scope: only with --phase);
#   - a trust state and audit trail in PROJECT_DIR/oath-harness (earlier versions) move to the
#     state directory (${XDG_STATE_HOME:-~/.local/state}/oath-harness/<project>-<hash>).
#   - the oath-* tools are linked into ~/.local/bin (an existing file of that name is kept);
#   - a second registration of the harness for the project (the plugin, or another scope with a
#     different command) is refused: every call would be judged twice.
#   A second run changes nothing. --uninstall restores the settings file exactly as it was (removes
#   it if install created it; removes only our hooks if it was edited since), removes the
#   commands and the installed copy once no settings file uses them, and keeps the trust state and
#   audit trail unless --purge. --doctor checks an installation end to end (oath-doctor).
# Errors: exit 1 with one line on stderr, nothing changed: the settings file is not a JSON object,
#   jq is missing, PROJECT_DIR does not exist, no binaries. Exit 2: usage.
# Example: hooks/install.sh ~/src/myproject
set -euo pipefail

die() {
  printf 'install.sh: %s\n' "$1" >&2
  exit "${2:-1}"
}
say() { printf 'install.sh: %s\n' "$*" >&2; }
usage="usage: install.sh [--scope local|project|user] [--phase NAME] [--no-sandbox] [--allow-domain D]... [--registries] [--state-dir DIR] [--claude PATH] [--uninstall [--purge]] [--doctor] [PROJECT_DIR]"

uninstall=false purge=false doctor=false scope=local phase='' project=.
sandbox=true registries=false domains=() state_dir='' claude_cli=${OATH_CLAUDE:-}
while (($#)); do
  case $1 in
  --uninstall) uninstall=true ;;
  --purge) purge=true ;;
  --doctor) doctor=true ;;
  --no-sandbox) sandbox=false ;;
  --registries) registries=true ;;
  --scope | --phase | --allow-domain | --state-dir | --claude)
    (($# > 1)) || die "$1 needs a value ($usage)" 2
    case $1 in
    --scope) scope=$2 ;;
    --phase) phase=$2 ;;
    --allow-domain) domains+=("$2") ;;
    --state-dir) state_dir=$2 ;;
    --claude) claude_cli=$2 ;;
    esac
    shift
    ;;
  --scope=*) scope=${1#--scope=} ;;
  --phase=*) phase=${1#--phase=} ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  -*) die "unknown flag $1 ($usage)" 2 ;;
  *)
    project=$1
    ;;
  esac
  shift
done
case $scope in local | project | user) ;; *) die "unknown scope $scope (want local, project or user)" 2 ;; esac
case $phase in '' | planning | building | auditing) ;; *) die "unknown phase $phase (want planning, building or auditing)" 2 ;; esac
$purge && ! $uninstall && die "--purge goes with --uninstall ($usage)" 2
for d in "${domains[@]}"; do
  [[ $d =~ ^(\*\.)?[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$ ]] || die "--allow-domain $d is not a domain name (example.org, or *.example.org)" 2
done
if [[ -n $state_dir ]]; then
  if ! mkdir -p "$state_dir" 2>/dev/null || ! state_dir=$(cd "$state_dir" && pwd -P); then
    die "cannot create the state directory $state_dir"
  fi
fi

[[ -d $project ]] || die "no such project directory: $project"
project=$(cd "$project" && pwd -P)
hooks_dir=$(cd "$(dirname "$(readlink -f -- "${BASH_SOURCE[0]}")")" && pwd -P)
checkout=${hooks_dir%/*}
[[ ${HOME:-} == /* ]] || die "HOME is not set to an absolute path"
data_home=${XDG_DATA_HOME:-}
[[ $data_home == /* ]] || data_home=$HOME/.local/share
data=$data_home/oath-harness
current=$data/current

# --doctor: the checks live in oath-doctor; run the installed one, else this checkout's.
if $doctor; then
  for d in "$current/bin" "${OATH_BIN:-}" "$checkout/bin"; do
    if [[ -n $d && -x $d/oath-doctor ]]; then
      exec "$d/oath-doctor" --project "$project"
    fi
  done
  die "no oath-doctor found in $current/bin or $checkout/bin; run scripts/build.sh"
fi

command -v jq >/dev/null 2>&1 || die "jq is required (scripts/setup.sh installs it, or your package manager)"
case $scope in
local) settings=$project/.claude/settings.local.json commands=$HOME/.claude/commands ;;
project) settings=$project/.claude/settings.json commands=$project/.claude/commands ;;
user) settings=$HOME/.claude/settings.json commands=$HOME/.claude/commands ;;
esac
registrations=$data/registrations

reg_key=$(printf '%s' "$settings" | sha256sum | cut -c1-16)
reg=$registrations/$reg_key

# write_file PATH SOURCE replaces PATH with SOURCE's content atomically (a temporary file in the
# same directory, then a rename), keeping PATH's mode if it exists.
write_file() {
  local tmp
  mkdir -p "${1%/*}"
  tmp=$(mktemp "${1%/*}/.${1##*/}.XXXXXX")
  cat "$2" >"$tmp"
  if [[ -e $1 ]]; then chmod --reference="$1" "$tmp"; else chmod 644 "$tmp"; fi
  mv -f "$tmp" "$1"
}

# shq WORD quotes WORD for sh (Claude Code runs hook commands through a shell): always single
# quotes, so the same path always gives the same string, the one install recognises as its own.
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# bash by absolute path, found now: the hooks never start through PATH, which the agent can
# change (a bash written into ~/.local/bin would otherwise run every hook). /bin/bash first.
bash_abs=
for b in /bin/bash /usr/bin/bash /usr/local/bin/bash /opt/homebrew/bin/bash; do
  if [[ -x $b ]] && "$b" -c '((BASH_VERSINFO[0] >= 4))' 2>/dev/null; then bash_abs=$b && break; fi
done
[[ -n $bash_abs ]] || die "no bash 4 or later at /bin/bash, /usr/bin/bash, /usr/local/bin/bash or /opt/homebrew/bin/bash"

# hook_args: what every hook is given on its command line (the hooks take no location from the
# environment).
hook_args=
[[ -z $state_dir ]] || hook_args=" --home $(shq "$state_dir")"

# command_for SCRIPT CODE: the registered command line. It checks before it runs: a missing
# script (the copy removed, a half-finished upgrade) exits CODE with one line instead of the
# shell's 127, which Claude Code would treat as a harmless error and let the call through; and
# any status but 0 and CODE (a shell that cannot start the script: 126) becomes CODE too.
command_for() {
  local f
  f=$(shq "$current/hooks/$1")
  # shellcheck disable=SC2016 # $f and $s are for the shell that runs the hook
  printf 'f=%s; if [ -f "$f" ]; then %s "$f"%s; s=$?; [ $s -eq 0 ] && exit 0; [ $s -eq %d ] || echo "oath-harness: $f exited with status $s" >&2; exit %d; fi; echo "oath-harness: $f is missing; reinstall with %s, or remove the hooks with %s --uninstall" >&2; exit %d' \
    "$f" "$(shq "$bash_abs")" "$hook_args" "$2" "$2" "$(shq "$hooks_dir/install.sh")" "$(shq "$hooks_dir/install.sh")" "$2"
}

# The binaries: from $OATH_BIN, else built fresh where Go is at hand (so that the copy's
# binaries and hooks are the same version), else this checkout's bin/. Into a staging directory
# that becomes the installed copy. (Not for --uninstall, which needs none.)
staging=
cleanup() { [[ -z $staging ]] || rm -rf "$staging"; }
trap cleanup EXIT
if ! $uninstall; then
  mkdir -p "$data"
  staging=$(mktemp -d "$data/.staging-XXXXXX")
  mkdir "$staging/bin" "$staging/hooks"
  if [[ -n ${OATH_BIN:-} ]]; then
    src_bin=${OATH_BIN%/}
  elif [[ -f $checkout/go.mod ]] && command -v go >/dev/null 2>&1; then
    say "building the binaries (go build ./cmd/... in $checkout)"
    (cd "$checkout" && CGO_ENABLED=0 go build -trimpath -buildvcs=auto -o "$staging/bin/" ./cmd/...) || die "go build failed (see above); nothing was changed"
    src_bin=$staging/bin
  elif [[ -x $checkout/bin/oath-classify ]]; then
    src_bin=$checkout/bin
  else
    die "no oath-* binaries in ${OATH_BIN:-$checkout/bin} and no go to build them; run scripts/build.sh"
  fi
  for b in oath-classify oath-gate oath-trust oath-decide oath-audit oath-doctor; do
    [[ -x $src_bin/$b ]] || die "$src_bin/$b is missing; run scripts/build.sh"
  done
fi

# Which Claude Code reads the file: onFailure "block" and the newest events only where it knows them.
claude_version=
[[ -n $claude_cli ]] || claude_cli=$(command -v claude 2>/dev/null) || claude_cli=
if [[ -n $claude_cli ]]; then
  claude_version=$(timeout 30 "$claude_cli" --version 2>/dev/null | awk 'NR == 1 && $1 ~ /^[0-9]+(\.[0-9]+)*$/ {print $1}') || claude_version=
fi

# ours: the hooks to register, from the one table of them (oath-doctor hooks), each with its
# command line. A hook that times out lets the call through unless onFailure is "block", so each
# timeout exceeds the longest the hook can take (every stage gives up after 10 s and the hook
# then blocks). Stop fails with 1, not 2 (exit 2 on Stop makes Claude keep working).
ours='[]' on_failure=false
if ! $uninstall; then
  table=$("$src_bin/oath-doctor" hooks ${claude_version:+--claude-version "$claude_version"}) || die "$src_bin/oath-doctor hooks failed; run scripts/build.sh"
  on_failure=$(jq -r .on_failure <<<"$table")
  ours=$(jq -c .hooks <<<"$table")
  cmds='{}'
  for sc in $(jq -r '[.[] | "\(.script):\(.fail_code)"] | unique | .[]' <<<"$ours"); do
    cmds=$(jq -c --arg k "$sc" --arg c "$(command_for "${sc%%:*}.sh" "${sc##*:}")" '.[$k] = $c' <<<"$cmds")
  done
  ours=$(jq -c --argjson cmds "$cmds" 'map(. + {command: $cmds["\(.script):\(.fail_code)"]})' <<<"$ours")
fi

# The sandbox settings install writes (sandbox.*; the person's own values stay where stricter).
sandbox_json=$hooks_dir/sandbox.json
jq -e '.deny_read and .deny_read_project and .deny_write_project and .registries' "$sandbox_json" >/dev/null 2>&1 || die "$sandbox_json is missing or not valid; reinstall from a whole checkout"
deny_read_json=$(jq -c --arg scope "$scope" '.deny_read + (if $scope == "user" then [] else .deny_read_project end)' "$sandbox_json")
# The harness's own files in the project (state.md, the phase, the protected list), which no
# sandboxed command may write: only in the project and local scopes. In ~/.claude/settings.json
# Claude Code resolves a relative path against ~/.claude, not each project (measured: e2e
# TestHostFactsSandboxDenyWrite), so there the entries would protect nothing and only look as if
# they did; the user scope writes none and says how to cover a project.
deny_write_json=$(jq -c --arg scope "$scope" 'if $scope == "user" then [] else .deny_write_project end' "$sandbox_json")
if $registries; then
  mapfile -t more < <(jq -r '.registries[]' "$sandbox_json")
  domains+=("${more[@]}")
fi
domains_json=$(printf '%s\n' "${domains[@]}" | jq -R . | jq -sc 'map(select(. != ""))')
deny_json=$deny_read_json

if [[ -e $settings ]]; then
  current_json=$(jq -c . "$settings" 2>/dev/null) || die "$settings is not valid JSON; fix it first (nothing was changed)"
  [[ $(jq -r 'type' <<<"$current_json") == object ]] || die "$settings is not a JSON object; fix it first (nothing was changed)"
  jq -e '(.hooks // {}) | type == "object"' <<<"$current_json" >/dev/null ||
    die "$settings has a \"hooks\" key that is not an object; fix it first (nothing was changed)"
else
  current_json='{}'
fi

# ours($script): a hook command of ours for that script: the current form, any earlier install's
# copy (f='…/oath-harness/…/hooks/SCRIPT.sh'; …), or this checkout's hooks by path (versions that
# registered the checkout itself).
# shellcheck disable=SC2016 # jq program, not shell
program='
def mine($script): (.command // "") as $c
  | ($c | test("^f=\u0027[^\u0027]*/oath-harness/[^\u0027]*/hooks/" + $script + "\\.sh\u0027; ")) or $c == ($checkout + "/hooks/" + $script + ".sh");
def anymine: . as $h | any($names[]; . as $n | $h | mine($n));
def uniq: reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end);
def sandboxed:
  if $sandbox then
    .sandbox = ((.sandbox // {})
      | .enabled = true | .autoAllowBashIfSandboxed = true
      | .allowUnsandboxedCommands = (if has("allowUnsandboxedCommands") then .allowUnsandboxedCommands else true end)
      | .network = ((.network // {}) | .allowedDomains = ((.allowedDomains // []) + $domains | uniq))
      | .filesystem = ((.filesystem // {}) | .denyRead = ((.denyRead // []) + $deny | uniq)
          | if ($denyWrite | length) > 0 then .denyWrite = ((.denyWrite // []) + $denyWrite | uniq) else . end))
  else . end;
def remove:
  if (.hooks | type) == "object" then
    .hooks |= (with_entries(
        .value |= (if type == "array" then
          map(if (.hooks | type) == "array" and any(.hooks[]; anymine)
              then .hooks |= map(select(anymine | not)) | select(.hooks | length > 0)
              else . end)
        else . end)
      | select((.value | type) != "array" or (.value | length) > 0)))
    | if .hooks == {} then del(.hooks) else . end
  else . end;
def add:
  reduce $ours[] as $o (.;
    ({type: "command", command: $o.command, timeout: $o.timeout} + (if $onfail then {onFailure: "block"} else {} end)) as $h
    | if any(.hooks[$o.event][]?; any(.hooks[]?; mine($o.script))) then
        # in place, where it is; a second copy (an earlier install of another form) goes
        .hooks[$o.event] |= (
          map(if (.hooks | type) == "array" then .hooks |= map(if mine($o.script) then $h else . end) else . end)
          | [range(length) as $i | (.[$i].hooks | if type == "array" then . else [] end)
              | range(length) as $j | select(.[$j].command == $h.command) | [$i, "hooks", $j]] as $at
          | delpaths($at[1:])
          | map(select((.hooks | type) != "array" or (.hooks | length) > 0)))
      else
        .hooks[$o.event] = ((.hooks[$o.event] // []) + [((if $o.matcher then {matcher: $o.matcher} else {} end) + {hooks: [$h]})])
      end)
  | sandboxed;
if $uninstall then remove else add end
'
# names: every hook script of ours (an earlier install may have registered one the table no longer has)
names=$(for f in "$hooks_dir"/*.sh; do f=${f##*/} && printf '%s\n' "${f%.sh}"; done | grep -vx 'lib\|install\|plugin' | jq -R . | jq -sc .)
jqargs=(--argjson names "$names" --argjson ours "$ours" --arg checkout "$checkout" --argjson onfail "$on_failure" --argjson sandbox "$sandbox" --argjson domains "$domains_json" --argjson deny "$deny_json" --argjson denyWrite "$deny_write_json")
updated=$(jq --indent 2 "${jqargs[@]}" --argjson uninstall "$uninstall" "$program" <<<"$current_json")

sha() { sha256sum | cut -c1-64; }

# One install or uninstall at a time (they share the copy and the registrations). flock(1) is in
# util-linux; where it is missing, the atomic renames still keep every file whole.
if command -v flock >/dev/null 2>&1; then
  mkdir -p "$data"
  exec 9>"$data/.lock"
  flock -w 120 9 || die "another install.sh has held $data/.lock for 2 minutes; try again"
fi

# ---- uninstall ------------------------------------------------------------------------------
if $uninstall; then
  kept=()
  reg_state=$(jq -r '.state_dir // empty' "$reg.json" 2>/dev/null) || reg_state=
  # The sandbox settings go back to what they were before install, unless changed since.
  if [[ -f $reg.json ]] && jq -e 'has("sandbox_written")' "$reg.json" >/dev/null; then
    if [[ $(jq -S -c .sandbox <<<"$current_json") == "$(jq -S -c .sandbox_written "$reg.json")" ]]; then
      updated=$(jq --indent 2 --slurpfile r "$reg.json" \
        'if $r[0].sandbox_before.had then .sandbox = $r[0].sandbox_before.value else del(.sandbox) end' <<<"$updated")
    else
      kept+=("the sandbox settings in $settings (changed since install)")
    fi
  fi
  if [[ -e $settings ]]; then
    if [[ -f $reg.json ]] && [[ $(jq -r '.created or .exact' "$reg.json") == true ]] &&
      [[ $(sha <"$settings") == "$(jq -r .written "$reg.json")" ]]; then
      # Untouched since install: put back exactly what was there.
      if [[ $(jq -r .created "$reg.json") == true ]]; then
        rm -f "$settings"
        rmdir "${settings%/*}" 2>/dev/null || true
        say "removed $settings (install had created it)"
      else
        write_file "$settings" "$reg.orig"
        say "restored $settings exactly as it was before install"
      fi
    elif [[ $(jq -c . <<<"$updated") != "$current_json" ]]; then
      if [[ $(jq -c . <<<"$updated") == '{}' && -f $reg.json && $(jq -r .created "$reg.json") == true ]]; then
        rm -f "$settings"
        rmdir "${settings%/*}" 2>/dev/null || true
        say "removed $settings (install had created it; it held only our hooks)"
      else
        tmp=$(mktemp)
        printf '%s\n' "$updated" >"$tmp"
        write_file "$settings" "$tmp"
        rm -f "$tmp"
        say "removed the oath-harness hooks from $settings (edited since install: everything else kept)"
      fi
    else
      say "$settings holds no oath-harness hooks; nothing to remove there"
    fi
  else
    say "$settings does not exist; nothing to remove there"
  fi
  rm -f "$reg.json" "$reg.orig"
  rmdir "$registrations" 2>/dev/null || true
  # Where this project's state is (asked before the copy that knows it goes).
  state=
  for d in "$current/bin" "${OATH_BIN:-}" "$checkout/bin"; do
    if [[ -n $d && -x $d/oath-doctor ]]; then
      state=$(CLAUDE_PROJECT_DIR=$project OATH_HOME=$reg_state "$d/oath-doctor" state-dir --project "$project") || state=
      break
    fi
  done

  # The commands and the installed copy go with the last settings file that uses them.
  in_use=false users=()
  for r in "$registrations"/*.json; do
    [[ -f $r ]] || continue
    s=$(jq -r .settings "$r")
    if [[ -f $s ]] && jq -r '.. | .command? // empty | strings' "$s" 2>/dev/null | grep -qF "$(shq "$current/hooks/" | sed "s/'\$//")"; then
      in_use=true users+=("$s")
    fi
  done
  remove_commands() {
    local dir=$1 p
    for p in planning building auditing; do
      if [[ -f $dir/$p.md ]] && cmp -s "$hooks_dir/commands/$p.md" "$dir/$p.md"; then
        rm -f "$dir/$p.md"
      fi
    done
    rmdir "$dir" 2>/dev/null || true
  }
  [[ $scope != project ]] || remove_commands "$commands"
  if $in_use; then
    kept+=("the installed copy $current (still registered in ${users[*]})")
  else
    remove_commands "$HOME/.claude/commands"
    if [[ -e $current || -d $data/versions ]]; then
      for l in "$HOME/.local/bin"/oath-*; do
        [[ -L $l && $(readlink "$l") == "$current/bin/${l##*/}" ]] && rm -f "$l"
      done
      rm -rf "$data/versions" "$current" "$data/.staging-"*
      say "removed the installed copy ($data): no settings file uses it any more"
    fi
    rm -f "$data/.lock"
    rmdir "$data" 2>/dev/null || true
  fi
  if [[ -n $state && -d $state ]]; then
    if $purge; then
      rm -rf "$state"
      say "purged the trust state and audit trail ($state)"
    else
      kept+=("the trust state and audit trail in $state (remove them with --uninstall --purge)")
    fi
  fi
  [[ ! -f $project/.claude/current-phase.md ]] || kept+=("the phase file $project/.claude/current-phase.md")
  for k in "${kept[@]}"; do say "kept $k"; done
  exit 0
fi

# ---- install --------------------------------------------------------------------------------
# One registration of the harness per project: the plugin, or a hook of ours with another command
# line in another scope, would judge every call twice (Claude Code runs an identical command
# once, so the same command in two scopes is one registration). Refused before anything changes.
self_install=$(shq "$hooks_dir/install.sh")
for other in "$HOME/.claude/settings.json" "$project/.claude/settings.json" "$project/.claude/settings.local.json"; do
  [[ $other != "$settings" && -f $other ]] || continue
  plugin=$(jq -r '(.enabledPlugins // {}) | if type == "object" then to_entries[] | select(.value == true and (.key | startswith("oath-harness@"))) | .key else empty end' "$other" 2>/dev/null | head -n1) || plugin=
  if [[ -n $plugin ]]; then
    die "the oath-harness plugin ($plugin, enabled in $other) already runs the hooks here; a second registration would judge every call twice. Keep the plugin (nothing to install), or remove it first: claude plugin uninstall $plugin"
  fi
  theirs=$(jq -r --argjson names "$names" --argjson ours "$ours" --arg checkout "$checkout" "$(sed -n '/^def mine/,/^def anymine/p' <<<"$program")"'
    [(.hooks // {}) | objects | .[] | arrays | .[] | (.hooks // []) | arrays | .[] | objects | select(anymine) | .command]
    | map(select(. as $c | all($ours[]; .command != $c))) | length' "$other" 2>/dev/null) || theirs=0
  if ((theirs > 0)); then
    oscope=local
    [[ $other != "$HOME/.claude/settings.json" ]] || oscope=user
    [[ $other != "$project/.claude/settings.json" ]] || oscope=project
    die "$other already registers the oath-harness hooks with another command line (another copy or other options); a second registration would judge every call twice. Remove that one first: $self_install --uninstall --scope $oscope $(shq "$project")"
  fi
done

if [[ $src_bin != "$staging/bin" ]]; then
  cp -p "$src_bin"/oath-* "$staging/bin/"
fi
cp -p "$hooks_dir"/*.sh "$staging/hooks/"
cp -pR "$hooks_dir/commands" "$staging/hooks/"
cp -p "$hooks_dir/sandbox.json" "$staging/hooks/"
version=$("$staging/bin/oath-classify" --version 2>/dev/null | awk '{print $2}')
digest=$(cd "$staging" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha | cut -c1-12)
name=${version:-unknown}-$digest
printf '%s\n' "$name" >"$staging/VERSION"
mkdir -p "$data/versions"
if [[ -d $data/versions/$name ]]; then
  rm -rf "$staging"
else
  mv "$staging" "$data/versions/$name"
fi
staging=
# current -> versions/NAME, replaced by a rename: a hook starting now sees the old or the new copy.
if [[ $(readlink "$current" 2>/dev/null) != "versions/$name" ]]; then
  ln -sfn "versions/$name" "$data/.current.tmp"
  mv -fT "$data/.current.tmp" "$current"
  say "installed $name in $data/versions (now $current)"
fi
for old in "$data/versions"/*; do
  [[ $old == "$data/versions/$name" ]] || rm -rf "$old"
done

# The settings file, and its registration: what was there before (to restore it exactly), and
# what install wrote (to know whether anyone changed it since).
record() { # created exact
  jq -n --arg settings "$settings" --arg scope "$scope" --arg project "$project" --argjson created "$1" --argjson exact "$2" \
    --arg written "$(sha <"$settings")" --argjson before "$sb_before" --argjson sbw "$(jq -c .sandbox "$settings")" --argjson sandbox "$sandbox" --arg state_dir "$state_dir" \
    '{settings: $settings, scope: $scope, project: $project, created: $created, exact: $exact, written: $written,
      sandbox: $sandbox, sandbox_before: $before, sandbox_written: $sbw, state_dir: $state_dir}' >"$reg.json.tmp"
  mv -f "$reg.json.tmp" "$reg.json"
}
# had_ours: the file already holds hooks of ours (an earlier install, maybe of an older version).
had_ours=false
if [[ $(jq -c "${jqargs[@]}" --argjson uninstall true "$program" <<<"$current_json") != "$current_json" ]]; then
  had_ours=true
fi
mkdir -p "$registrations"
changed=false
# What the sandbox key was before the first install (kept across reinstalls), to put it back.
sb_before=$(jq -c '{had: has("sandbox"), value: .sandbox}' <<<"$current_json")
if [[ -f $reg.json ]] && $had_ours; then
  sb_before=$(jq -c '.sandbox_before // {had: false, value: null}' "$reg.json")
fi
if [[ -e $settings ]] && [[ $(jq -c . <<<"$updated") == "$current_json" ]]; then
  # Nothing to do: a second run leaves the file byte for byte as it was.
  [[ -f $reg.json ]] || record false false
else
  if [[ -f $reg.json ]] && $had_ours; then
    created=$(jq -r .created "$reg.json") exact=$(jq -r '.exact // false' "$reg.json")
  elif [[ -e $settings ]]; then
    created=false exact=true
    $had_ours && exact=false # registered before registrations were kept: nothing to restore from
    $exact && cp -p "$settings" "$reg.orig"
  else
    created=true exact=true
    rm -f "$reg.orig"
  fi
  tmp=$(mktemp)
  printf '%s\n' "$updated" >"$tmp"
  write_file "$settings" "$tmp"
  rm -f "$tmp"
  record "$created" "$exact"
  changed=true
  if $created; then
    say "created $settings with the oath-harness hooks ($scope scope)"
  elif $exact; then
    say "registered the oath-harness hooks in $settings ($scope scope); its previous content is kept in $reg.orig until --uninstall"
  else
    say "updated the oath-harness hooks in $settings ($scope scope)"
  fi
fi

# The phase commands: added only where none of that name exists. Claude Code passes a prompt to
# the UserPromptSubmit hook only when its slash command exists.
for p in planning building auditing; do
  src=$hooks_dir/commands/$p.md dst=$commands/$p.md
  if [[ ! -e $dst ]]; then
    mkdir -p "$commands"
    cp "$src" "$dst"
    changed=true
  elif ! cmp -s "$src" "$dst"; then
    say "keeping your own $dst (it must still pass /$p prompts on)"
  fi
done

# The state: out of the working tree, once.
if [[ -x $current/bin/oath-doctor ]]; then
  CLAUDE_PROJECT_DIR=$project OATH_HOME=$state_dir "$current/bin/oath-doctor" migrate --project "$project" || die "could not move the old state out of $project (nothing was lost; see above)"
fi

# The starting phase (building unless --phase says otherwise), only where none is set.
phase_file=$project/.claude/current-phase.md
if [[ -n $phase || ($scope != user && ! -e $phase_file) ]]; then
  mkdir -p "${phase_file%/*}"
  printf '%s\n' "${phase:-building}" >"$phase_file.tmp.$$"
  mv -f "$phase_file.tmp.$$" "$phase_file"
  changed=true
fi
if [[ -f $phase_file ]]; then
  now="$(head -n1 "$phase_file") in $project"
else
  now="auditing, the strictest, in each project until you switch"
fi

# The tools, reachable from any directory: links in ~/.local/bin to the installed copy (through
# current, so an upgrade needs no new links). A file of that name that is not a link is kept.
links=$HOME/.local/bin
mkdir -p "$links"
own=()
for t in "$current"/bin/oath-*; do
  n=${t##*/}
  if [[ -e $links/$n && ! -L $links/$n ]]; then
    own+=("$n")
  elif [[ $(readlink "$links/$n" 2>/dev/null) != "$current/bin/$n" ]]; then
    ln -sfn "$current/bin/$n" "$links/$n"
    changed=true linked=true
  fi
done
[[ -z ${linked:-} ]] || say "linked the oath-* tools into $links"
((${#own[@]} == 0)) || say "kept your own ${own[*]} in $links (not links of ours)"
doctor_cmd="$(shq "$links/oath-doctor") --project $(shq "$project")"
case ":$PATH:" in
*":$links:"*) doctor_cmd="oath-doctor --project $(shq "$project")" ;;
*) say "$links is not on your PATH: add it (export PATH=\"\$HOME/.local/bin:\$PATH\" in ~/.profile) to run oath-audit, oath-trust and oath-doctor by name" ;;
esac

if $sandbox; then
  if [[ -n $(jq -c '.sandbox.network.allowedDomains // [] | select(length > 0)' "$settings") ]]; then
    net="only $(jq -r '.sandbox.network.allowedDomains | join(", ")' "$settings") reachable without asking"
  else
    net="no network domain allowed (each new one is asked; --allow-domain D or --registries allow some)"
  fi
  say "the Bash sandbox is on in $settings: commands run confined to the project, $net, credentials unreadable; --no-sandbox leaves it off"
  if [[ $scope == user ]]; then
    say "the user scope cannot keep each project's state.md, .claude/current-phase.md and .claude/protected-files.txt from sandboxed commands (Claude Code reads a relative path in $settings against ~/.claude): run $(shq "$hooks_dir/install.sh") --scope local PROJECT in a project to add them there; until then a sandboxed command there can change them (oath-doctor --project PROJECT says so)"
  else
    say "sandboxed commands cannot create, change, delete or rename the harness's own files here (sandbox.filesystem.denyWrite: $(jq -r 'join(", ")' <<<"$deny_write_json"))"
  fi
else
  say "the Bash sandbox is left as it was (--no-sandbox): without it, what the harness cannot read is never automatic"
fi
if [[ -z $claude_version ]]; then
  say "no claude found (--claude PATH names it): the hooks are registered without onFailure \"block\"; run install again once Claude Code is installed"
elif [[ $on_failure != true ]]; then
  say "Claude Code $claude_version predates onFailure \"block\" (2.1.295): a hook that times out lets its call through; upgrade Claude Code, then run install again"
fi

if ! $changed; then
  say "$project is already set up ($scope scope); nothing changed"
fi
cat >&2 <<EOF
phases: /planning reads and designs (no edits), /building implements (earned trust decides what runs
  without asking), /auditing reviews (the most restrictive); the phase is now ${now}.
switch by typing /planning, /building or /auditing in Claude Code; check the setup: $doctor_cmd
EOF
