#!/usr/bin/env node
// The selu-registry command. The only place in this package that touches the console and the process.
import { main } from "./cli.js";

process.exitCode = await main(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
