#!/usr/bin/env node
// `kiro-learn-shim <agent>`: the hook script of @kiro-learn/shims, on the PATH of whoever
// installs kiro-learn (a dependency's own bins are not linked there). The Claude Code
// plugin's hooks run it. CommonJS and one require: a hook is a process start.
require('@kiro-learn/shims/bin/kiro-learn-shim.cjs');
