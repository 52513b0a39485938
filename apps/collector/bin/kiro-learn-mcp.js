#!/usr/bin/env node
// `kiro-learn-mcp`: the MCP server of @kiro-learn/mcp-server, on the PATH of whoever
// installs kiro-learn (a dependency's own bins are not linked there). The Claude Code
// plugin registers it. Runs on Node 20.16 or later, like the server itself.
import '@kiro-learn/mcp-server/cli';
