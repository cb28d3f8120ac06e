#!/usr/bin/env node
// gen-yaml-js.cjs writes yaml-js.golden.json: what the JavaScript `yaml` package (eemeli/yaml,
// the parser lint-staged and other Node tools read their YAML configs with) reads of each text
// of yaml.golden.json, the same inputs gen.py gives PyYAML.
//
//     npm install --prefix /tmp/yamljs yaml@2
//     NODE_PATH=/tmp/yamljs/node_modules node internal/configfile/testdata/gen-yaml-js.cjs
//
// Each scalar is kept as a string (the failsafe schema: the reader does not type scalars) and
// merge keys (<<) are resolved, as gen.py does: lint-staged's YAML.parse leaves a merge key as
// a key (YAML 1.2), and the reader keeps it as a key too, besides merging it. A text the
// package does not read (an error, or more than one document) is recorded with its error.
// The file is committed so that the tests need no Node; run this again after gen.py.
"use strict";
const fs = require("fs");
const path = require("path");
const YAML = require("yaml");

const here = __dirname;
const texts = JSON.parse(fs.readFileSync(path.join(here, "yaml.golden.json"), "utf8")).map((c) => c.text);
const version = require("yaml/package.json").version;

const out = texts.map((text) => {
  const doc = YAML.parseDocument(text, { schema: "failsafe", merge: true });
  if (doc.errors.length > 0) {
    return { text, error: doc.errors[0].message.split("\n")[0] };
  }
  return { text, want: doc.toJS() };
});
fs.writeFileSync(path.join(here, "yaml-js.golden.json"), JSON.stringify({ parser: "yaml " + version, cases: out }, null, 1) + "\n");
