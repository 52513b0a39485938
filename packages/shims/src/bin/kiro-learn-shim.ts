#!/usr/bin/env node
// Entry of `kiro-learn-shim <surface> [event]`, the dispatching bundle.
import { main } from '../cli.js';

void main(process.argv.slice(2));
