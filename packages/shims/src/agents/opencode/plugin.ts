/**
 * The OpenCode plugin init writes (`.opencode/plugins/kiro-learn.js`): plain JavaScript
 * with no dependencies, run by OpenCode's own runtime. It builds a payload per event and
 * runs the hook command, as agents with hook commands do; for a prompt it waits for the
 * memory the hook prints (bounded: the hook's own deadlines) and adds it to the message as
 * a synthetic text part. Every failure is swallowed: a plugin error must not break OpenCode.
 */
export function openCodePlugin(hookCommand: string): string {
  return `// kiro-learn memory for OpenCode, written by \`kiro-learn init\` (run \`kiro-learn uninstall\` to remove it).
// Records each turn through kiro-learn's hook and adds relevant memory to your prompts.
import { spawn } from "node:child_process";

const HOOK = ${JSON.stringify(hookCommand)};

function hook(payload, wait) {
  return new Promise((resolve) => {
    let out = "";
    let child;
    try {
      child = spawn("/bin/sh", ["-c", HOOK], { cwd: payload.cwd, stdio: ["pipe", "pipe", "ignore"] });
    } catch {
      return resolve("");
    }
    child.on("error", () => resolve(""));
    child.stdout.on("data", (chunk) => { out += chunk; });
    child.on("close", () => resolve(out));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
    if (!wait) resolve("");
  });
}

export const KiroLearn = async ({ directory }) => {
  const args = new Map();
  const event = (name, sessionID, extra) =>
    hook({ hook_event_name: name, session_id: sessionID, cwd: directory, ...extra }, false);
  return {
    event: async ({ event: e }) => {
      const p = e?.properties ?? {};
      const sessionID = p.sessionID ?? p.info?.id;
      if (!sessionID) return;
      if (e.type === "session.created") await event("session.created", sessionID, {});
      else if (e.type === "session.idle") await event("session.idle", sessionID, {});
      else if (e.type === "session.compacted") await event("session.compacted", sessionID, {});
      else if (e.type === "session.error")
        await event("session.error", sessionID, {
          error: { name: p.error?.name, message: p.error?.data?.message ?? p.error?.message },
        });
    },
    "chat.message": async (input, output) => {
      try {
        const parts = output?.parts ?? [];
        const prompt = parts.filter((part) => part.type === "text" && !part.synthetic).map((part) => part.text).join("\\n");
        if (!prompt.trim()) return;
        const context = await hook(
          { hook_event_name: "chat.message", session_id: input.sessionID, cwd: directory, prompt },
          true,
        );
        if (context.trim()) {
          const first = parts[0] ?? {};
          parts.push({
            id: \`\${first.id ?? "prt"}_kiro_learn\`,
            sessionID: first.sessionID ?? input.sessionID,
            messageID: first.messageID ?? input.messageID,
            type: "text",
            text: context,
            synthetic: true,
          });
        }
      } catch {}
    },
    "tool.execute.before": async (input, output) => {
      if (input?.callID) args.set(input.callID, output?.args ?? {});
    },
    "tool.execute.after": async (input, output) => {
      const toolInput = args.get(input?.callID) ?? {};
      args.delete(input?.callID);
      await event("tool.execute.after", input?.sessionID, {
        tool_name: input?.tool,
        tool_input: toolInput,
        tool_response: { title: output?.title, output: output?.output, metadata: output?.metadata },
      });
    },
  };
};
`;
}
