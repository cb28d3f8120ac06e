#!/usr/bin/env python3
"""Extract the block/allow cases of two peers' test suites into JSON lines.

Usage: testdata/peers/extract.py CC_SAFETY_NET_CHECKOUT DCG_CHECKOUT
(writes testdata/peers/cc-safety-net.jsonl and testdata/peers/dcg.jsonl; see README.md)

Only commands written as plain string literals in the peers' own assertions are taken:
  cc-safety-net (TypeScript): assertBlocked(cmd, …) -> block, assertAllowed(cmd, …) -> allow
  dcg (Rust): assert_blocks*, test_batch_blocks, assert_denies_with_rule -> block;
              assert_allows, assert_safe_pattern_matches, test_batch_allows,
              assert_allows_command -> allow; assert_decision(cmd, "deny"|"allow");
              tests/corpus/**/*.toml: expected / expected_decision.
A literal built at run time (a template with ${…}, format!) is skipped. Duplicates are kept once.
"""
import json
import os
import re
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))


def read_string(s, i, lang):
    """Read a string literal at s[i]; return (value, end) or (None, i)."""
    if lang == "rust":
        m = re.match(r'r(#*)"', s[i:])
        if m:
            close = '"' + m.group(1)
            j = s.find(close, i + len(m.group(0)))
            if j < 0:
                return None, i
            return s[i + len(m.group(0)):j], j + len(close)
        quotes = '"'
    else:
        quotes = "'\"`"
    if i >= len(s) or s[i] not in quotes:
        return None, i
    q = s[i]
    out = []
    j = i + 1
    while j < len(s):
        c = s[j]
        if c == "\\":
            n = s[j + 1]
            if lang == "rust" and n == "\n":  # line continuation
                j += 2
                while j < len(s) and s[j] in " \t\n":
                    j += 1
                continue
            esc = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"', "`": "`", "$": "$"}
            if n in esc:
                out.append(esc[n])
                j += 2
                continue
            if n == "x":
                out.append(chr(int(s[j + 2:j + 4], 16)))
                j += 4
                continue
            if n == "u":
                m = re.match(r"u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})", s[j + 1:])
                if m:
                    out.append(chr(int(m.group(1) or m.group(2), 16)))
                    j += 1 + len(m.group(0))
                    continue
            out.append(n)
            j += 2
            continue
        if c == q:
            v = "".join(out)
            if q == "`" and "${" in v:
                return None, j + 1
            return v, j + 1
        if c == "\n" and q != "`" and lang == "ts":
            return None, i
        out.append(c)
        j += 1
    return None, i


def args_of(s, i, lang):
    """Split the argument list whose '(' is at s[i]; return a list of raw argument texts."""
    depth, j, start, args = 0, i, i + 1, []
    while j < len(s):
        c = s[j]
        if c in "\"'`" or (lang == "rust" and c == "r" and re.match(r'r#*"', s[j:]) and not s[j - 1].isalnum()):
            if lang == "rust" and c == "'":  # a char literal or a lifetime: skip it
                m = re.match(r"'(\\.|[^\\'])'", s[j:])
                j += len(m.group(0)) if m else 1
                continue
            _, end = read_string(s, j, lang)
            j = end if end > j else j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(s[start:j])
                return args
        elif c == "," and depth == 1:
            args.append(s[start:j])
            start = j + 1
        j += 1
    return None


def literal(arg, lang):
    a = arg.strip()
    a = re.sub(r"^&", "", a).strip()
    v, end = read_string(a, 0, lang)
    if v is None or a[end:].strip() not in ("", ".to_string()", ".into()"):
        return None
    return v


def literals_in_array(arg, lang):
    a = arg.strip().lstrip("&").strip()
    if not a.startswith("["):
        return []
    out, j = [], 1
    while j < len(a):
        v, end = read_string(a, j, lang)
        if v is not None:
            out.append(v)
            j = end
        else:
            j += 1
    return out


def walk(root, exts):
    for d, _, files in os.walk(root):
        for f in sorted(files):
            if f.endswith(exts):
                yield os.path.join(d, f)


def cc_safety_net(root):
    cases = []
    for p in walk(os.path.join(root, "tests"), (".ts",)):
        rel = os.path.relpath(p, root)
        if "powershell" in rel:  # PowerShell commands: Claude Code's Bash tool runs bash
            continue
        s = open(p, encoding="utf-8").read()
        for m in re.finditer(r"\b(assertBlocked|assertAllowed)\(", s):
            args = args_of(s, m.end() - 1, "ts")
            if not args:
                continue
            v = literal(args[0], "ts")
            if v is None:
                continue
            line = s.count("\n", 0, m.start()) + 1
            cases.append((v, "block" if m.group(1) == "assertBlocked" else "allow", f"{rel}:{line}"))
    return cases


DCG_FNS = {
    "assert_blocks": ("block", 1), "assert_blocks_with_pattern": ("block", 1),
    "assert_blocks_with_severity": ("block", 1), "assert_allows": ("allow", 1),
    "assert_safe_pattern_matches": ("allow", 1), "assert_allows_command": ("allow", 0),
    "assert_denies_with_rule": ("block", 0), "assert_decision": (None, 0),
    "test_batch_blocks": ("block", "batch"), "test_batch_allows": ("allow", "batch"),
}


def dcg(root):
    cases = []
    for p in list(walk(os.path.join(root, "src"), (".rs",))) + list(walk(os.path.join(root, "tests"), (".rs",))):
        rel = os.path.relpath(p, root)
        if rel.endswith("test_helpers.rs"):
            continue
        s = open(p, encoding="utf-8").read()
        for m in re.finditer(r"(\.|\bfn\s+)?\b(" + "|".join(DCG_FNS) + r")\(", s):
            if m.group(1) and m.group(1).startswith("fn"):
                continue
            kind, idx = DCG_FNS[m.group(2)]
            args = args_of(s, m.end() - 1, "rust")
            if not args:
                continue
            method = m.group(1) == "."
            line = s.count("\n", 0, m.start()) + 1
            where = f"{rel}:{line}"
            if idx == "batch":
                k = 0 if method else 1
                if len(args) > k:
                    cases += [(v, kind, where) for v in literals_in_array(args[k], "rust")]
                continue
            if method and idx == 1:
                idx = 0
            if len(args) <= idx:
                continue
            v = literal(args[idx], "rust")
            if v is None:
                continue
            if kind is None:
                d = literal(args[1], "rust") if len(args) > 1 else None
                kind = {"deny": "block", "allow": "allow"}.get(d or "")
                if kind is None:
                    continue
            cases.append((v, kind, where))
    for p in walk(os.path.join(root, "tests", "corpus"), (".toml",)):
        rel = os.path.relpath(p, root)
        with open(p, "rb") as f:
            doc = tomllib.load(f)
        for c in doc.get("case", []):
            cmd = c.get("command")
            exp = c.get("expected", c.get("expected_decision"))
            if cmd is None or exp not in ("deny", "allow"):
                continue
            cases.append((cmd, "block" if exp == "deny" else "allow", f"{rel} {c.get('id') or c.get('description', '')}"))
    return cases


def write(name, cases):
    seen, n = {}, {"block": 0, "allow": 0}
    for cmd, kind, where in cases:
        if not cmd.strip():
            continue
        if cmd in seen:
            if seen[cmd] != kind:
                seen[cmd] = "both"
            continue
        seen[cmd] = kind
    path = os.path.join(HERE, name)
    with open(path, "w", encoding="utf-8") as f:
        done = set()
        for cmd, kind, where in cases:
            if cmd in done or seen.get(cmd) in (None, "both"):
                continue
            done.add(cmd)
            n[kind] += 1
            f.write(json.dumps({"cmd": cmd, "class": kind, "note": where}, ensure_ascii=False) + "\n")
    both = sum(1 for v in seen.values() if v == "both")
    print(f"{name}: {n['block']} block, {n['allow']} allow ({both} commands both blocked and allowed in different settings: left out)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    write("cc-safety-net.jsonl", cc_safety_net(sys.argv[1]))
    write("dcg.jsonl", dcg(sys.argv[2]))
