/**
 * JSON-lines logger for stdout. Lines are buffered and written once per event-loop turn, so a busy server
 * makes one write syscall per batch instead of one per request.
 */

export interface BufferedLogger<T> {
  log: (line: T) => void;
  /** Writes anything buffered now (call before exiting). */
  flush: () => void;
}

export function createStdoutLogger<T extends object>(): BufferedLogger<T> {
  let buffer = "";
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (buffer.length === 0) return;
    const out = buffer;
    buffer = "";
    process.stdout.write(out);
  };
  return {
    log(line) {
      buffer += `${JSON.stringify(line)}\n`;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
