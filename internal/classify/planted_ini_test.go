package classify

import (
	"testing"

	"github.com/oath-harness/oath-harness/internal/classify/kernel"
	"github.com/oath-harness/oath-harness/internal/risk"
)

// TestPlantedToxINI: tox.ini and setup.cfg are read as tox reads them (configparser through
// configfile.INI): a key ends at = or :, is lowercased, runs on over deeper lines; tox's own
// reading of a value (comments, factor conditions, a leading -) follows. A command planted in
// any spelling tox runs is judged; a text Python may read otherwise is code left unread.
func TestPlantedToxINI(t *testing.T) {
	w := func(content string) map[string]any { return map[string]any{"content": content} }
	edit := func(old, new string) map[string]any { return map[string]any{"old_string": old, "new_string": new} }
	const ordinaryTox = "[tox]\nenvlist = py3, lint\n\n[testenv]\ndeps = pytest\nsetenv =\n    PYTHONPATH = {toxinidir}/src\n    COVERAGE_FILE = {envtmpdir}/.coverage\ncommands = pytest {posargs:tests}\n\n[testenv:lint]\ndeps = ruff\ncommands =\n    ruff check .\n    ruff format --check .\n\n[flake8]\nmax-line-length = 100\n"
	runConfigCases(t, []configCase{
		{"commands: as the key", "", "tox.ini", w("[testenv]\ncommands: rm -rf ~\n"), nil, risk.Critical, "", ""},
		{"Commands = in another case", "", "tox.ini", w("[testenv]\nCommands = rm -rf ~\n"), nil, risk.Critical, "", ""},
		{"COMMANDS_PRE:", "", "tox.ini", w("[testenv:x]\nCOMMANDS_PRE: pytest\n  rm -rf ~\n"), nil, risk.Critical, "", ""},
		{"Commands = in setup.cfg", "", "setup.cfg", w("[metadata]\nname = x\n[tox:tox]\nenvlist = py3\n[testenv]\nCommands = rm -rf ~\n"), nil, risk.Critical, "", ""},
		{"commands: in setup.cfg", "", "setup.cfg", w("[tox:tox]\n[testenv:lint]\ncommands: rm -rf ~\n"), nil, risk.Critical, "", ""},
		{"a factor condition", "", "tox.ini", w("[testenv]\ncommands =\n    pytest\n    py3: rm -rf ~\n"), nil, risk.Critical, "", ""},
		{"[DEFAULT] gives every section its commands", "", "tox.ini", w("[DEFAULT]\ncommands = rm -rf ~\n[testenv]\ndeps = pytest\n"), nil, risk.Critical, "", ""},
		{"a base section", "", "tox.ini", w("[base]\ncommands = rm -rf ~\n[testenv:x]\nbase = base\n"), nil, risk.Critical, "", ""},
		{"a command whose exit code is ignored", "", "tox.ini", w("[testenv]\ncommands = -rm -rf ~\n"), nil, risk.Critical, "", ""},
		{"a value another key names", "", "tox.ini", w("[vars]\ncmd = rm -rf ~\n[testenv]\ncommands = {[vars]cmd}\n"), nil, risk.Critical, "", ""},
		{"a factor condition on a line a \\ continues", "", "tox.ini", w("[testenv]\ncommands =\n    py3: echo \\\n    touch x\n"), nil, risk.Medium, "", kernel.RuleNotRead},
		{"references past what is followed", "", "tox.ini", w("[a]\nx = {[a]x} {[a]x} {[a]x} {[a]x}\n[testenv]\ncommands = {[a]x}\n"), nil, risk.Medium, "", kernel.RuleNotRead},
		{"set_env that loads a library", "", "tox.ini", w("[testenv]\nset_env =\n    LD_PRELOAD = /tmp/x.so\ncommands = pytest\n"), nil, risk.High, risk.High, ""},
		{"setenv that runs a wrapper", "", "setup.cfg", w("[tox:tox]\n[testenv]\nsetenv = PYTHONSTARTUP=/tmp/x.py\n"), nil, risk.High, "", ""},
		{"install_command", "", "tox.ini", w("[testenv]\ninstall_command = sh -c 'rm -rf ~' {packages}\n"), nil, risk.Critical, "", ""},
		{"a value continued by a backslash", "", "tox.ini", w("[testenv]\ncommands = rm \\\n    -rf ~\n"), nil, risk.Critical, "", ""},
		{"a text configparser refuses is still judged", "", "tox.ini", w("[testenv]\ncommands = pytest\nCommands = rm -rf ~\n"), nil, risk.Critical, "", ""},
		{"an Edit adding a line to commands", "Edit", "tox.ini", edit("commands = pytest {posargs:tests}", "commands = pytest {posargs:tests}\n    rm -rf ~"), map[string]string{"tox.ini": ordinaryTox}, risk.Critical, "", ""},
		{"an Edit adding Commands:", "Edit", "tox.ini", edit("deps = ruff", "deps = ruff\nCommands: rm -rf ~"), map[string]string{"tox.ini": "[testenv:lint]\ndeps = ruff\n"}, risk.Critical, "", ""},
		{"a space Python strips, not the harness", "", "tox.ini", w("[testenv]\ncommands = pytest\n\u00a0rm -rf ~\n"), nil, risk.Medium, "", kernel.RuleNotRead},
		{"legacy_tox_ini in pyproject.toml", "", "pyproject.toml", w("[project]\nname = \"x\"\n\n[tool.tox]\nlegacy_tox_ini = \"\"\"\n[testenv]\nCommands: rm -rf ~\n\"\"\"\n"), nil, risk.Critical, "", ""},
		{"an ordinary tox.ini", "", "tox.ini", w(ordinaryTox), nil, risk.Medium, risk.Medium, ""},
		{"an ordinary Edit of tox.ini", "Edit", "tox.ini", edit("deps = pytest", "deps =\n    pytest\n    pytest-cov"), map[string]string{"tox.ini": ordinaryTox}, risk.Medium, risk.Medium, ""},
		{"an ordinary setup.cfg", "", "setup.cfg", w("[metadata]\nname = x\nversion = attr: x.__version__\n\n[options]\npackages = find:\ninstall_requires =\n    requests>=2\n\n[tox:tox]\nenvlist = py3\n\n[testenv]\ncommands = pytest\n"), nil, risk.Medium, risk.Medium, ""},
	})
}

// TestToxRuns: tox runs the commands of tox.ini, or of setup.cfg when tox.ini is missing and
// setup.cfg has [tox:tox], or of pyproject.toml's legacy_tox_ini, read as tox reads them.
func TestToxRuns(t *testing.T) {
	runRunnerCases(t, []runnerCase{
		{"commands: in tox.ini", map[string]string{"tox.ini": "[testenv]\ncommands: rm -rf ~\n"}, "tox", risk.Critical, "", ""},
		{"Commands = in tox.ini", map[string]string{"tox.ini": "[testenv]\nCommands = rm -rf ~\n"}, "tox -e py3", risk.Critical, "", ""},
		{"setup.cfg without tox.ini", map[string]string{"setup.cfg": "[tox:tox]\nenvlist = py3\n[testenv]\nCommands = rm -rf ~\n"}, "tox", risk.Critical, "", ""},
		{"pyproject.toml's legacy_tox_ini", map[string]string{"pyproject.toml": "[tool.tox]\nlegacy_tox_ini = '''\n[testenv]\ncommands = rm -rf ~\n'''\n"}, "tox", risk.Critical, "", ""},
		{"tox.ini before pyproject.toml", map[string]string{"tox.ini": "[testenv]\ncommands = pytest\n", "pyproject.toml": "[tool.tox]\nlegacy_tox_ini = '''\n[testenv]\ncommands = rm -rf ~\n'''\n"}, "tox", risk.Low, risk.Low, kernel.TestRun},
		{"an ordinary setup.cfg", map[string]string{"setup.cfg": "[tox:tox]\nenvlist = py3\n[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n"}, "tox", risk.Low, risk.Low, kernel.TestRun},
	})
}
