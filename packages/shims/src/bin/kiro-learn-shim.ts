#!/usr/bin/env node
// Entry of `kiro-learn-shim <surface> [event]`, the dispatching bundle.
import { main } from '../cli.js';

await main(process.argv.slice(2));
