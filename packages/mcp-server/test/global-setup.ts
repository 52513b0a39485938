import { build } from './build.ts';

export default function setup(): void {
  build('@kiro-learn/mcp-server');
}
