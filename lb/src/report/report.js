// The LB report's charts (render_html.cpp inlines this file after Chart.js 3). Every chart has
// axis titles with units and ticks; the charts over phases share one zoom (a range of phases);
// the rank-by-phase map is drawn cell by cell on Chart.js's scales, with its colour scale beside it.
// The zoom takes a range of phase ids from its two fields, or from the link (#phases=FROM-TO).
// When done it writes what it drew into <pre id="chart-check"> (hidden), which the headless-browser
// test reads: each chart's axis titles and tick labels, the map's cells and the rank bars.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const phases = data.phases;
  const last = phases.length - 1;
  Chart.defaults.animation = false;
  Chart.defaults.font.size = 12;
  Chart.defaults.maintainAspectRatio = false;

  const groupLabel = (g, what) => (g[0] === g[1] ? `${what} ${g[0]}` : `${what}s ${g[0]}-${g[1]}`);
  const phaseLabel = (g) => (g[0] === g[1] ? `phase ${phases[g[0]]}` : `phases ${phases[g[0]]}-${phases[g[1]]}`);
  const seconds = (v) => `${Number(v).toPrecision(4)} s`;
  const title = (text) => ({ display: true, text: text, font: { weight: 'bold' } });
  // Ticks at whole numbers only (phase indices, ranks), 1, 2 or 5 times a power of ten apart, at
  // most about 12 of them: the map's axes run from -0.5 so that cells sit on their number.
  function wholeTicks(scale) {
    const lo = Math.ceil(scale.min), hi = Math.floor(scale.max);
    let step;
    for (let power = 1; step === undefined; power *= 10) step = [1, 2, 5].map((m) => m * power).find((s) => (hi - lo) / s <= 12);
    const ticks = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) ticks.push({ value: v });
    scale.ticks = ticks;
  }
  // A linear axis over phase indices, labelled with the phases' ids (which need not be 0, 1, ...).
  const phaseAxis = (min, max) => ({
    type: 'linear', min: min, max: max, title: title('phase'), afterBuildTicks: wholeTicks,
    ticks: { callback: (v) => (Number.isInteger(v) && v >= 0 && v <= last ? phases[v] : '') },
  });

  // White through blue to dark red as t goes from 0 to 1 (the map's colour scale).
  function colour(t) {
    t = Math.min(Math.max(t, 0), 1);
    const mix = (a, b, u) => Math.round(a + (b - a) * u);
    if (t < 0.5) {
      const u = t / 0.5;
      return `rgb(${mix(247, 66, u)},${mix(251, 146, u)},${mix(255, 198, u)})`;
    }
    const u = (t - 0.5) / 0.5;
    return `rgb(${mix(66, 165, u)},${mix(146, 15, u)},${mix(198, 21, u)})`;
  }

  // Rank load per phase. Each cell's colour is its load over the busiest cell of its column, so a
  // phase's imbalance shows whatever the phase's length.
  const top = data.columns.map((_, c) => Math.max(...data.heat.map((row) => row[c]), 0));
  const ranks = data.rows.length ? data.rows[data.rows.length - 1][1] + 1 : 1;
  let cellsDrawn = 0;
  const cells = {
    id: 'cells',
    beforeDatasetsDraw(chart) {
      const { ctx, chartArea, scales } = chart;
      ctx.save();
      ctx.beginPath();
      ctx.rect(chartArea.left, chartArea.top, chartArea.right - chartArea.left, chartArea.bottom - chartArea.top);
      ctx.clip();
      cellsDrawn = 0;
      data.rows.forEach((row, r) => {
        const y0 = scales.y.getPixelForValue(row[0] - 0.5), y1 = scales.y.getPixelForValue(row[1] + 0.5);
        data.columns.forEach((col, c) => {
          const x0 = scales.x.getPixelForValue(col[0] - 0.5), x1 = scales.x.getPixelForValue(col[1] + 0.5);
          ctx.fillStyle = colour(top[c] > 0 ? data.heat[r][c] / top[c] : 0);
          ctx.fillRect(x0, Math.min(y0, y1), x1 - x0 + 0.5, Math.abs(y1 - y0) + 0.5);
          ++cellsDrawn;
        });
      });
      ctx.restore();
    },
  };
  const centres = [];
  data.rows.forEach((row, r) => data.columns.forEach((col, c) => centres.push({
    x: (col[0] + col[1]) / 2, y: (row[0] + row[1]) / 2, r: r, c: c,
  })));
  const heat = new Chart(document.getElementById('heat'), {
    type: 'scatter',
    data: { datasets: [{ data: centres, pointRadius: 0, pointHoverRadius: 0 }] },
    options: {
      scales: {
        x: phaseAxis(-0.5, last + 0.5),
        y: { type: 'linear', reverse: true, min: -0.5, max: ranks - 0.5, title: title('rank'), afterBuildTicks: wholeTicks },
      },
      interaction: { mode: 'nearest', intersect: false },
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: (item) => {
          const p = item.raw, v = data.heat[p.r][p.c];
          return `${groupLabel(data.rows[p.r], 'rank')}, ${phaseLabel(data.columns[p.c])}: ${seconds(v)}` +
                 ` (${top[p.c] > 0 ? (v / top[p.c]).toFixed(2) : 0} of the phase's busiest)`;
        } } },
      },
    },
    plugins: [cells],
  });
  // The colour scale: a gradient of the same colours, with its ticks.
  const scale = document.getElementById('heat-scale');
  scale.style.background = `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map(colour).join(', ')})`;

  // Rank loads of one phase, chosen in the menu.
  const menu = document.getElementById('phase');
  const rankBars = new Chart(document.getElementById('rank-bars'), {
    type: 'bar',
    data: {
      labels: data.rows.map((g) => (g[0] === g[1] ? `${g[0]}` : `${g[0]}-${g[1]}`)),
      datasets: [{ data: data.bars[data.chosen], backgroundColor: '#4a7fb5', barPercentage: 1, categoryPercentage: 0.9 }],
    },
    options: {
      scales: { x: { title: title('rank') }, y: { beginAtZero: true, title: title('load (s)') } },
      plugins: { legend: { display: false },
                 tooltip: { callbacks: { label: (item) => `${groupLabel(data.rows[item.dataIndex], 'rank')}: ${seconds(item.raw)}` } } },
    },
  });
  function choose(index) {
    rankBars.data.datasets[0].data = data.bars[index];
    rankBars.update();
    document.getElementById('phase-imbalance').textContent = data.imbalance[index].toFixed(4);
  }
  phases.forEach((p, i) => {
    const option = document.createElement('option');
    option.value = i;
    option.textContent = `phase ${p}`;
    option.selected = i === data.chosen;
    menu.appendChild(option);
  });
  menu.addEventListener('change', () => choose(Number(menu.value)));
  choose(data.chosen);

  // Imbalance per phase, measured and (when given) after a balancer replayed on the same loads.
  const series = [{ label: 'measured', data: data.imbalance.map((v, i) => ({ x: i, y: v })), borderColor: '#c0392b',
                    backgroundColor: '#c0392b', pointRadius: phases.length > 60 ? 0 : 2, borderWidth: 1.5 }];
  if (data.balanced.length) {
    series.push({ label: `after ${data.balanced_label}`, data: data.balanced.map((v, i) => ({ x: i, y: v })),
                  borderColor: '#2471a3', backgroundColor: '#2471a3', pointRadius: phases.length > 60 ? 0 : 2, borderWidth: 1.5 });
  }
  const imbalance = new Chart(document.getElementById('imbalance'), {
    type: 'line',
    data: { datasets: series },
    options: {
      scales: { x: phaseAxis(0, last), y: { beginAtZero: true, title: title('I = max/avg - 1 (no unit)') } },
      interaction: { mode: 'index', intersect: false },
      plugins: { tooltip: { callbacks: { title: (items) => `phase ${phases[items[0].raw.x]}` } } },
    },
  });

  // Migrations per phase.
  const migrations = new Chart(document.getElementById('migrations'), {
    type: 'bar',
    data: { labels: phases.map(String), datasets: [{ data: data.migrations, backgroundColor: '#4a7fb5' }] },
    options: {
      scales: { x: { title: title('phase') }, y: { beginAtZero: true, title: title('migrations (objects)'), ticks: { precision: 0 } } },
      plugins: { legend: { display: false },
                 tooltip: { callbacks: { title: (items) => `phase ${items[0].label}`, label: (item) => `${item.raw} migrations` } } },
    },
  });

  // Object loads of the chosen phase, log-spaced bins.
  const objects = new Chart(document.getElementById('objects'), {
    type: 'bar',
    data: {
      labels: data.bin_counts.map((_, b) => `${data.bin_edges[b].toExponential(1)}-${data.bin_edges[b + 1].toExponential(1)}`),
      datasets: [{ data: data.bin_counts, backgroundColor: '#4a7fb5', barPercentage: 1, categoryPercentage: 0.95 }],
    },
    options: {
      scales: { x: { title: title('object load (s), log-spaced bins') },
                y: { beginAtZero: true, title: title('objects'), ticks: { precision: 0 } } },
      plugins: { legend: { display: false },
                 tooltip: { callbacks: { label: (item) => `${item.raw} objects` } } },
    },
  });

  // One zoom for the charts over phases: a range of phase ids, or all phases.
  const from = document.getElementById('zoom-from'), to = document.getElementById('zoom-to');
  from.value = phases[0];
  to.value = phases[last];
  function zoom() {
    let a = phases.findIndex((p) => p >= Number(from.value));
    let b = phases.length - 1 - [...phases].reverse().findIndex((p) => p <= Number(to.value));
    if (a < 0) a = last;
    if (b > last) b = 0;
    if (a > b) [a, b] = [b, a];
    heat.options.scales.x.min = a - 0.5;
    heat.options.scales.x.max = b + 0.5;
    imbalance.options.scales.x.min = a;
    imbalance.options.scales.x.max = Math.max(b, a + 1e-9);
    migrations.options.scales.x.min = a;
    migrations.options.scales.x.max = b;
    [heat, imbalance, migrations].forEach((c) => c.update());
  }
  from.addEventListener('change', zoom);
  to.addEventListener('change', zoom);
  document.getElementById('zoom-all').addEventListener('click', () => {
    from.value = phases[0];
    to.value = phases[last];
    zoom();
  });
  // A link can name the range: report.html#phases=FROM-TO.
  const named = /phases=(-?\d+)-(-?\d+)/.exec(window.location.hash);
  if (named) {
    from.value = named[1];
    to.value = named[2];
    zoom();
  }

  // What was drawn, for the test.
  const axes = (chart) => ({
    x: chart.options.scales.x.title.text, y: chart.options.scales.y.title.text,
    xticks: chart.scales.x.ticks.map((t) => String(t.label)).filter((t) => t !== ''),
    yticks: chart.scales.y.ticks.map((t) => String(t.label)).filter((t) => t !== ''),
  });
  document.getElementById('chart-check').textContent = JSON.stringify({
    heat: Object.assign(axes(heat), { cells: cellsDrawn }),
    rank_bars: Object.assign(axes(rankBars), { bars: rankBars.data.datasets[0].data.length }),
    imbalance: axes(imbalance), migrations: axes(migrations), objects: axes(objects),
  });
})();
