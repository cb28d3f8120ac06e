#!/usr/bin/env python3
"""gen.py writes the golden files of package configfile from the real parsers.

    python3 internal/configfile/testdata/gen.py      (PyYAML with its C loader, Python 3.11+)

yaml.golden.json: for each text, what PyYAML reads (scalars kept as strings, as the reader keeps
them: no implicit types, merge keys (<<) resolved), or an error. toml.golden.json: for each
text, tomllib's reading flattened to dotted paths, with strings and arrays of strings kept and
other values as null, or an error. The files are committed so that the tests need no Python;
run this again after adding a case.

ini.golden.json: for each text, what tox 4 reads of it as tox.ini or setup.cfg: the file read in
text mode (Path.read_text, universal newlines), then configparser.ConfigParser(interpolation=None)
as tox's IniSource makes it (its other options the defaults: strict, = and : as delimiters, # and
; as comment prefixes, empty lines in values, keys lowercased), given as [DEFAULT]'s options and
each section's in order, or configparser's error (tox then stops and runs nothing). Also the
characters Python counts as space (str.isspace), which the reader must know.
"""
import configparser
import itertools
import json
import os
import tempfile
import tomllib
from pathlib import Path

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))


class Loader(yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader):
    """PyYAML as pre-commit reads YAML, every scalar a string: the reader does not type them."""


Loader.yaml_implicit_resolvers = {
    k: [r for r in v if r[0] == "tag:yaml.org,2002:merge"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Loader.yaml_implicit_resolvers = {k: v for k, v in Loader.yaml_implicit_resolvers.items() if v}


def yaml_cases():
    cases = [
        "a: b\n", "a: b\n\n  c\n", "- a\n b\n", "a: b\n   c\n  # d\n", 'a: "b\\\n   c"\n',
        "a: 'b\n  #c'\n", "a: [b, {c: d}]\n", "x: &x {a: b}\ny:\n  <<: *x\n  c: d\n",
        "repos:\n- repo: local\n  hooks:\n  - id: a\n    entry: |\n      x\n      y\n    language: system\n",
        "a: |\n\n  x\n", "a: >\n\n  x\n  y\n", "a: |\n  x\n   y\n", "a: >\n  x\n   y\n  z\n",
        "a: |2\n   x\n  y\n", "a: |\n\n\nb: c\n", "a: |+\n\n\nb: c\n", "a: |-\n\n\nb: c\n",
        "- |\n  x\n\n- y\n", "- >-\n  x\n\n\n- y\n", "a:\n  b: |\n    x\n\n  c: d\n",
        "a: |\n  x\n\n...\n", "a: |+\n  x\n\n---\n",
    ]
    # Block scalars: every indicator, with and without a line break at the end, with empty
    # lines after them (the text's end, another key, a list item), and lines of spaces.
    for style, chomp, tail, after in itertools.product(
        "|>", ["", "-", "+"], ["", "\n", "\n\n", "\n  \n", "\n\n\n", "\n   \n"],
        ["", "b: c\n", "b: |\n  d\n"],
    ):
        for body in ["x", "x\n  y", "x\n\n  y", "x\n    y\n  z"]:
            cases.append("a: " + style + chomp + "\n  " + body + tail + after)
            cases.append("a: " + style + chomp + "\n  " + body + tail.rstrip("\n") + (after if tail else ""))
    return cases


def yaml_read(text):
    try:
        return {"text": text, "want": yaml.load(text, Loader=Loader)}
    except yaml.YAMLError as e:
        return {"text": text, "error": str(e).splitlines()[0]}


def flatten(prefix, v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            flatten(prefix + [k], x, out)
    elif isinstance(v, list) and any(isinstance(x, dict) for x in v):
        for i, x in enumerate(v):
            if isinstance(x, dict):
                flatten(prefix, x, out)  # an array of tables: the reader flattens them in order
    elif isinstance(v, str):
        out.append([".".join(prefix), v])
    elif isinstance(v, list) and all(isinstance(x, str) for x in v):
        out.append([".".join(prefix), v])
    else:
        out.append([".".join(prefix), None])


def toml_cases():
    return [
        'a = "b"\n', "a = 'b'\n", 'a = """\nb\n"""\n', "a = '''\nb'''\n", 'a = "\\u0072m"\n',
        'a = ["x", \'y z\']\n', '[t]\nk = "v"\n', '[t.\'u v\']\nk = "v"\n', 'a.b = "c"\n',
        'x = { value = "v", force = true }\n', '[env]\nX = { value = "v", relative = true }\n',
        '[target.x86_64-unknown-linux-gnu]\nrunner = ["a", "b c"]\nlinker = "cc"\n',
        'a = """b \\\n   c"""\n', 'a = "b\\tc"\n', "[alias]\nb = ['--config', 'x']\n",
        '\ufeff[t]\nk = "v"\n', 'a = 1\nb = "c"\n', '[a]\nb = [\n  "c", # d\n  "e",\n]\n',
        '[[a]]\nb = "c"\n[[a]]\nb = "d"\n',
    ]


def toml_read(text):
    try:
        out = []
        flatten([], tomllib.loads(text), out)
        return {"text": text, "want": out}
    except tomllib.TOMLDecodeError as e:
        return {"text": text, "error": str(e)}


def ini_cases():
    cases = [
        "[testenv]\ncommands = rm -rf ~\n", "[testenv]\ncommands: rm -rf ~\n", "[testenv]\nCommands = rm -rf ~\n",
        "[testenv]\nCOMMANDS_PRE=rm -rf ~\n", "[testenv]\ncommands =\n    pytest\n    rm -rf ~\n",
        "[testenv]\ncommands = pytest\n\n    rm -rf ~\n", "[testenv]\ncommands = pytest\n  # c\n    rm -rf ~\n",
        "[testenv]\ncommands = pytest\n  ; c\n  rm\n", "[testenv]\ncommands = a # not a comment\n",
        "[testenv]\ncommands = a ; x\n", "[a]\nb = c = d\n", "[a]\nb: c = d\n", "[a]\nb = c: d\n", "[a]\nb=c=d\n",
        "[a]\nb :c\n", "[a]\nb:=c\n", "[a]\nb=:c\n",
        "[testenv]\ncommands = a\ncommands = b\n", "[testenv]\ncommands = a\nCommands = b\n",
        "[testenv]\ncommands = a\nCommands: b\n", "[testenv]\n[testenv]\n", "[testenv]\na = 1\n[x]\n[testenv]\nb = 2\n",
        "[testenv]\n[TestEnv]\n", "commands = x\n", "\n# c\n[a]\nb = c\n", "; c\n  \n[a]\nb = c\n", "  x = y\n[a]\n",
        "[a]\njunk\n", "[a]\n= x\n", "[a]\n: x\n", "[a]\n = x\n  y\n", "[a]\nb = c\njunk\n  d\n",
        "[DEFAULT]\ncommands = rm\n[testenv]\n", "[DEFAULT]\na = 1\n[DEFAULT]\nb = 2\n",
        "[DEFAULT]\na = 1\n[DEFAULT]\na = 2\n", "[DEFAULT]\na = 1\n[b]\na = 2\n", "[default]\na = 1\n",
        "  [a]\n  b = c\n", "[a]\n  b = c\n  d = e\n", "[a]\n  b = c\n    d = e\n", "[a]\nb = c\n  [d]\n",
        "[a]\nb =\n  [d]\ne = f\n", "[a] ; comment\nb = c\n", "[a] x\nb = c\n", "[a]]\n", "[]\n", "[]]\n",
        "[a\n", "[ a ]\nb=c\n", "[a]b]\nc = d\n", "[a] = b\n", "[a = b]\nc = d\n", "[[a]]\nb = c\n",
        "[a]\nb = c\r\n  d\r\n", "[a]\rb = c\r", "[a]\r\nb = c\r  d\n  e\r\n", "[a]\nb = c\r\r  d\n",
        "[a]\n\tb = c\n\t\td\n", "[a]\n\tb = c\n  d\n", "[a]\n  b = c\n\td\n", "[a]\n \tb = c\n\t d\n",
        "\ufeff[a]\nb = c\n", "[a]\nb = c\n\n\n", "[a]\nb = c\n  \n\t\n", "[a]\nb =\n", "[a]\nb =  \n",
        "[a]\nb\n", "[a]\nb = c\nd\n  e\n", "[a]\nkey with spaces = v\n", "[a]\nb = c\\\n  d\n",
        "[a]\nb = %(x)s\n", "[a]\nb = c\n\n  d\n\n\n  e\n", "[a]\nb = c\n#\n  d\n",
        "[a]\nb = c\n\n# x\n\nd = e\n", "[a]\nb = c\n;x\n  d\n", "[a]\nb = c\n  #x\n\n  d\n",
        "[testenv:py{38,39}]\ncommands = x\n", "[tox:tox]\n[tox:testenv]\ncommands = x\n", "[a]\nb\t=\tc\n",
        "[a]\nb = c\u00a0\n", "[a]\n\u00a0b = c\n", "[a]\nb\u3000= c\n", "[a]\nb =\u3000c\n",
        "[a]\n\u00c7 = c\n", "[a]\nK = c\n", "[a]\nb = \x0bc\n", "[a]\nb = c\x1c\n", "[a]\nb = \u00e9\n",
        "[a]\nb = c\u2028d\n", "[a]\nb = c\x85d\n", "[a]\nb = c\x0cd\n", "[a]\nb = c\n\x0c\n  d\n",
        "[a]\nb = c\n\x0b  d\n", "[\u00a0a]\nb = c\n", "[a]\n#b = c\n  d\n", "[a]\nb = c\n  d = e\n  [f]\n",
        "[testenv]\ncommands =\n  py38: rm -rf ~\n  !py38: echo \\\n    rm -rf ~\n",
        "[a]\nb = c\n[a b]\nc = d\n", "[a]\nB = 1\nb = 2\n", "[a]\nb = 1\n[c]\nb = 2\n",
        "", "\n", "# only\n", "[a]", "[a]\nb = c", "[a]\nb = c\n  d",
    ]
    # Generated: a key (of either case) with each delimiter, at each indentation, its value on
    # one line or on lines after it (with empty lines, comments, deeper and shallower lines),
    # followed by another key, a section, an indented section, the same key again.
    bodies = ["rm -rf ~", "\n    rm -rf ~", "a\n    b\n\n    c", "a\n  # c\n    b", "\n  a\n    b\n  c",
              "a\n b\n\n\n", "\n\n    a"]
    after = ["", "other = x\n", "[next]\nb = c\n", "  [next]\n", "Commands = dup\n", "\tx: y\n"]
    for delim, key, indent, body, tail in itertools.product(
        ["=", ":", " = ", " : ", "\t=\t", "= "], ["commands", "Commands"], ["", "  ", "\t"], bodies, after,
    ):
        text = "[testenv]\n" + indent + key + delim + body + "\n" + tail
        cases.append(text)
        if delim == " = " and key == "commands":
            cases.append(text.replace("\n", "\r\n"))
    return cases


def ini_read(text):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "tox.ini"
        p.write_bytes(text.encode())
        try:
            content = p.read_text(encoding="utf-8")  # as tox reads it: universal newlines
            parser = configparser.ConfigParser(interpolation=None)
            parser.read_string(content, str(p))
        except (configparser.Error, UnicodeDecodeError) as e:
            return {"text": text, "error": type(e).__name__}
    sections = [[name, list(parser._sections[name].items())] for name in parser.sections()]
    return {"text": text, "want": {"defaults": list(parser.defaults().items()), "sections": sections}}


def write_ini(name, cases):
    spaces = [c for c in range(0x110000) if chr(c).isspace()]
    with open(os.path.join(HERE, name), "w") as f:
        f.write('{"parser": "configparser of Python %s", "spaces": %s, "cases": [\n' % (
            ".".join(map(str, __import__("sys").version_info[:3])), json.dumps(spaces)))
        f.write(",\n".join(json.dumps(c, ensure_ascii=False) for c in cases))
        f.write("\n]}\n")


def write(name, cases):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(cases, f, indent=1, ensure_ascii=False)
        f.write("\n")


write("yaml.golden.json", [yaml_read(t) for t in yaml_cases()])
write("toml.golden.json", [toml_read(t) for t in toml_cases()])
write_ini("ini.golden.json", [ini_read(t) for t in ini_cases()])
