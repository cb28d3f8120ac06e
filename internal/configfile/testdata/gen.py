#!/usr/bin/env python3
"""gen.py writes the golden files of package configfile from the real parsers.

    python3 internal/configfile/testdata/gen.py      (PyYAML with its C loader, Python 3.11+)

yaml.golden.json: for each text, what PyYAML reads (scalars kept as strings, as the reader keeps
them: no implicit types, merge keys (<<) resolved), or an error. toml.golden.json: for each
text, tomllib's reading flattened to dotted paths, with strings and arrays of strings kept and
other values as null, or an error. The files are committed so that the tests need no Python;
run this again after adding a case.
"""
import itertools
import json
import os
import tomllib

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


def write(name, cases):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(cases, f, indent=1, ensure_ascii=False)
        f.write("\n")


write("yaml.golden.json", [yaml_read(t) for t in yaml_cases()])
write("toml.golden.json", [toml_read(t) for t in toml_cases()])
