// An MCP server that reads its input and never answers (a hung server).
process.stdin.resume();
setInterval(() => {}, 60_000);
