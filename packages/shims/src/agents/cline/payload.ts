/**
 * Cline hook payloads (v3.36+: executable files named after the hook in
 * `.clinerules/hooks/`, or `~/Documents/Cline/Hooks/` for every project; JSON on stdin,
 * JSON on stdout), as in docs.cline.bot/features/hooks/hook-reference. Each payload has
 * the base fields and one object named after the hook (`taskStart`, `postToolUse`, …).
 * Types only.
 */

export interface ClineBase {
  clineVersion: string;
  hookName: string;
  timestamp: string;
  /** The task: Cline's conversation. */
  taskId: string;
  workspaceRoots: string[];
  userId: string;
}

export interface ClineTaskMetadata {
  taskId: string;
  ulid: string;
  /** The user's first message of the task. */
  initialTask?: string;
}

export interface ClineTaskStart extends ClineBase {
  hookName: 'TaskStart';
  taskStart: { taskMetadata: ClineTaskMetadata };
}

export interface ClineTaskResume extends ClineBase {
  hookName: 'TaskResume';
  taskResume: { taskMetadata: ClineTaskMetadata };
}

export interface ClineUserPromptSubmit extends ClineBase {
  hookName: 'UserPromptSubmit';
  userPromptSubmit: { prompt: string; attachments: string[] };
}

export interface ClinePostToolUse extends ClineBase {
  hookName: 'PostToolUse';
  postToolUse: {
    /** `execute_command`, `read_file`, `write_to_file`, `replace_in_file`, `search_files`, `use_mcp_tool`, … */
    toolName: string;
    parameters: Record<string, unknown>;
    result: string;
    success: boolean;
    executionTimeMs: number;
  };
}

export interface ClineTaskComplete extends ClineBase {
  hookName: 'TaskComplete';
  taskComplete: { taskMetadata: ClineTaskMetadata; result?: string };
}

export interface ClineTaskCancel extends ClineBase {
  hookName: 'TaskCancel';
  taskCancel: { taskMetadata: ClineTaskMetadata };
}

export interface ClinePreCompact extends ClineBase {
  hookName: 'PreCompact';
  preCompact: Record<string, unknown>;
}

export type ClinePayload =
  | ClineTaskStart
  | ClineTaskResume
  | ClineUserPromptSubmit
  | ClinePostToolUse
  | ClineTaskComplete
  | ClineTaskCancel
  | ClinePreCompact;

/** What a Cline hook answers: `contextModification` is added to the conversation. */
export interface ClineHookOutput {
  cancel: boolean;
  contextModification?: string;
  errorMessage?: string;
}
