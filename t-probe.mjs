import { Liquid } from 'liquidjs';
const l = new Liquid({ templates: {}, ownPropertyOnly: true });
let t0=performance.now();
try { const r = l.renderSync(l.parse("{% for i in (1..1000000) %}{{i}}{% endfor %}"), {}, { templateLimit: 10000 }); console.log('len', r.length); } catch (e) { console.log('E4', e.message); }
console.log(performance.now()-t0);
t0=performance.now();
try { const r = l.renderSync(l.parse("{% for i in (1..1000000) %}{{i}}{% endfor %}"), {}, { memoryLimit: 100000 }); console.log('len', r.length); } catch (e) { console.log('E6', e.message); }
console.log(performance.now()-t0);
try { const r = l.renderSync(l.parse("{% for i in (1..100) %}{% for j in (1..100000) %}x{% endfor %}{% endfor %}"), {}, { memoryLimit: 100000 }); console.log('len', r.length); } catch (e) { console.log('E7', e.message); }
try { const r = l.renderSync(l.parse("{{ 'ab' | append: 'cd' }}{% assign s = 'x' %}{% for i in (1..30) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}"), {}, { memoryLimit: 1000000 }); console.log('len', r.length); } catch (e) { console.log('E8', e.message); }
