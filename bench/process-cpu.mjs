import { readFileSync } from 'node:fs';

/** CPU seconds (user + system, all threads) a process has used, from /proc (Linux). */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line; [0] here is field 3.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
