// The tail of a server's stderr: the last `maxChars` characters and a count of what was dropped,
// so a server that prints 50 MB costs a fixed amount of memory and the window still sees its end.

export const DEFAULT_LOG_CHARS = 32 * 1024;

export class BoundedLog {
  private text = '';
  private droppedChars = 0;

  constructor(private readonly maxChars: number = DEFAULT_LOG_CHARS) {}

  append(chunk: string): void {
    if (chunk.length >= this.maxChars) {
      this.droppedChars += this.text.length + chunk.length - this.maxChars;
      this.text = chunk.slice(chunk.length - this.maxChars);
      return;
    }
    const over = this.text.length + chunk.length - this.maxChars;
    if (over > 0) {
      this.droppedChars += over;
      this.text = this.text.slice(over);
    }
    this.text += chunk;
  }

  get dropped(): number {
    return this.droppedChars;
  }

  get length(): number {
    return this.text.length;
  }

  /** The kept text, with a first line saying how much came before it. */
  tail(): string {
    if (this.droppedChars === 0) return this.text;
    return `[… ${this.droppedChars.toLocaleString('en-US')} earlier characters not kept …]\n${this.text}`;
  }

  clear(): void {
    this.text = '';
    this.droppedChars = 0;
  }
}
