// Preloaded (node --import) into a process whose peak resident memory bench/run.mjs reports: writes
// it to stderr as the process exits, without touching what the process itself prints.
process.on('exit', () => process.stderr.write(`peak-rss-mb ${process.resourceUsage().maxRSS / 1024}\n`));
