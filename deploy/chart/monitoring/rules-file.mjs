// The PrometheusRule the chart renders (on stdin: `helm template ... --show-only templates/prometheusrule.yaml`)
// as a Prometheus rule file (on stdout), for `promtool check rules` and `promtool test rules` (.ci/run).
import { parse, stringify } from 'yaml';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const rule = parse(input);
if (rule?.kind !== 'PrometheusRule') throw new Error('expected one PrometheusRule on stdin');
process.stdout.write(stringify({ groups: rule.spec.groups }, { lineWidth: 0 }));
