// An MCP server that dies before it answers anything, as a server with a missing database would.
process.stderr.write('fixture: cannot open the database at /nowhere/db.sqlite\n');
process.exit(3);
