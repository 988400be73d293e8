// Shorter forms of messages the model has already acted on: a tool output keeps its start (and
// end), a call's long arguments keep their short fields and the first lines of long ones, a long
// text of the model keeps its head and tail. Each says what was cut, and arguments stay valid JSON.
import type { ChatMessage, ChatToolCall } from './chat-message';

/** Texts up to this long are left whole: shortening them would save little. */
export const SHRINK_ABOVE_CHARS = 800;
const KEEP_CHARS = 400;
/** A string argument up to this long is kept whole (paths, commands, patterns). */
const KEEP_ARGUMENT_CHARS = 200;
const ARGUMENT_HEAD_LINES = 3;
/** Past this, the shortened arguments become a single note. */
const MAX_SHORTENED_ARGUMENT_CHARS = 1200;

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** An older output: its start and a note. */
export function shrinkOldOutput(message: ToolMessage): ToolMessage {
  const { content } = message;
  if (content.length <= SHRINK_ABOVE_CHARS) return message;
  const head = content.slice(0, KEEP_CHARS);
  return {
    ...message,
    content: `${head}\n[… older tool output shortened to save context: ${(content.length - head.length).toLocaleString('en-US')} characters cut; run the tool again if you need it …]`,
  };
}

/** A recent output the model may still be reading: its start, its end and a note. */
export function shrinkRecentOutput(message: ToolMessage): ToolMessage {
  if (message.content.length <= SHRINK_ABOVE_CHARS) return message;
  return {
    ...message,
    content: headAndTail(
      message.content,
      'output shrunk to save context',
      '; run the tool again if you need it',
    ),
  };
}

/** The calls' long arguments shortened (the calls were answered); the text is left as it is. */
export function shrinkCalls(message: AssistantMessage): AssistantMessage {
  if (!message.tool_calls?.some((call) => call.function.arguments.length > SHRINK_ABOVE_CHARS))
    return message;
  return { ...message, tool_calls: message.tool_calls.map(shrinkCallArguments) };
}

/** The model's own long text and long arguments: the last thing shortened. */
export function shrinkAssistant(message: AssistantMessage): AssistantMessage {
  const calls = shrinkCalls(message);
  const content =
    message.content !== null && message.content.length > SHRINK_ABOVE_CHARS
      ? headAndTail(message.content, 'your earlier message shortened to save context')
      : message.content;
  return content === message.content ? calls : { ...calls, content };
}

/**
 * A call's arguments, shortened to valid JSON: short fields whole, a long string as its first
 * lines and a note with its size (`write_file` of 600 KB → its path, size and first lines).
 */
export function shrinkCallArguments(call: ChatToolCall): ChatToolCall {
  const text = call.function.arguments;
  if (text.length <= SHRINK_ABOVE_CHARS) return call;
  let shortened: string | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const fields = Object.entries(parsed as Record<string, unknown>).map(([key, value]) => [
        key,
        shortenValue(value),
      ]);
      shortened = JSON.stringify(Object.fromEntries(fields));
    }
  } catch {
    // Not JSON (kept as the model sent it): the note below stands in for it.
  }
  if (shortened === undefined || shortened.length > MAX_SHORTENED_ARGUMENT_CHARS) {
    shortened = JSON.stringify({
      shortened: `${text.length} characters of arguments, cut to save context; this call was answered`,
    });
  }
  return { ...call, function: { ...call.function, arguments: shortened } };
}

function shortenValue(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length <= KEEP_ARGUMENT_CHARS) return value;
    const lines = value.split('\n');
    const head = lines.slice(0, ARGUMENT_HEAD_LINES).join('\n').slice(0, KEEP_ARGUMENT_CHARS);
    return `${head}\n[… ${value.length.toLocaleString('en-US')} characters (${lines.length.toLocaleString('en-US')} lines) in all; the rest cut to save context, this call was answered …]`;
  }
  if (value === null || typeof value !== 'object') return value;
  const json = JSON.stringify(value);
  return json.length <= KEEP_ARGUMENT_CHARS
    ? value
    : `[… ${json.length.toLocaleString('en-US')} characters of JSON cut to save context …]`;
}

function headAndTail(content: string, what: string, advice = ''): string {
  const head = content.slice(0, KEEP_CHARS);
  const tail = content.slice(-KEEP_CHARS);
  const cut = content.length - head.length - tail.length;
  return `${head}\n[… ${what}: first and last ${KEEP_CHARS} characters kept, ${cut} cut${advice} …]\n${tail}`;
}
