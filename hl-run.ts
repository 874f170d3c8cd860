import { evaluate } from './scripts/eval/human-likeness.eval';
evaluate().then((rows) => { for (const r of rows) console.log(`${r.metric.padEnd(52)} ${r.dataset.padEnd(45)} ${String(r.n).padEnd(5)} ${r.value.toFixed(3)} ${r.pass === undefined ? '' : r.pass ? 'yes' : 'NO'}`); });
