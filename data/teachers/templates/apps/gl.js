const M4 = {
  mul(a, b) { const o = new Float32Array(16); for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) { let s = 0; for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k]; o[c * 4 + r] = s; } return o; },
  persp(fov, asp, n, f) { const t = 1 / Math.tan(fov / 2); return new Float32Array([t / asp, 0, 0, 0, 0, t, 0, 0, 0, 0, (f + n) / (n - f), -1, 0, 0, 2 * f * n / (n - f), 0]); },
  move(x, y, z) { return new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]); },
  size(s) { return new Float32Array([s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1]); },
  rotX(a) { const c = Math.cos(a), s = Math.sin(a); return new Float32Array([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]); },
  rotY(a) { const c = Math.cos(a), s = Math.sin(a); return new Float32Array([c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]); },
  // a unit cylinder (z from 0 to 1) stretched from point a to point b with radius r
  between(a, b, r) {
    const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], len = Math.hypot(...d) || 1, z = d.map((v) => v / len);
    const up = Math.abs(z[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
    let x = [up[1] * z[2] - up[2] * z[1], up[2] * z[0] - up[0] * z[2], up[0] * z[1] - up[1] * z[0]];
    const xl = Math.hypot(...x); x = x.map((v) => v / xl);
    const y = [z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]];
    return new Float32Array([x[0] * r, x[1] * r, x[2] * r, 0, y[0] * r, y[1] * r, y[2] * r, 0, d[0], d[1], d[2], 0, a[0], a[1], a[2], 1]);
  },
};
function glStart(canvas) {
  const gl = canvas.getContext('webgl', {antialias: true});
  const src = {
    v: 'attribute vec3 p; attribute vec3 n; uniform mat4 vp; uniform mat4 model; varying vec3 vn;' +
       'void main() { vn = (model * vec4(n, 0.0)).xyz; gl_Position = vp * model * vec4(p, 1.0); }',
    f: 'precision mediump float; varying vec3 vn; uniform vec3 color; uniform float glow;' +
       'void main() { float l = max(dot(normalize(vn), normalize(vec3(0.5, 0.8, 0.6))), 0.0);' +
       'gl_FragColor = vec4(color * (glow + (1.0 - glow) * (0.3 + 0.7 * l)), 1.0); }',
  };
  const prog = gl.createProgram();
  for (const [type, code] of [[gl.VERTEX_SHADER, src.v], [gl.FRAGMENT_SHADER, src.f]]) {
    const sh = gl.createShader(type); gl.shaderSource(sh, code); gl.compileShader(sh); gl.attachShader(prog, sh);
  }
  gl.linkProgram(prog); gl.useProgram(prog); gl.enable(gl.DEPTH_TEST);
  const at = {p: gl.getAttribLocation(prog, 'p'), n: gl.getAttribLocation(prog, 'n')};
  const un = {vp: gl.getUniformLocation(prog, 'vp'), model: gl.getUniformLocation(prog, 'model'),
              color: gl.getUniformLocation(prog, 'color'), glow: gl.getUniformLocation(prog, 'glow')};
  function mesh(pos, nor, idx, mode) {
    const b = (data, target) => { const buf = gl.createBuffer(); gl.bindBuffer(target, buf); gl.bufferData(target, data, gl.STATIC_DRAW); return buf; };
    return {p: b(new Float32Array(pos), gl.ARRAY_BUFFER), n: b(new Float32Array(nor), gl.ARRAY_BUFFER),
            i: b(new Uint16Array(idx), gl.ELEMENT_ARRAY_BUFFER), count: idx.length, mode: mode === undefined ? gl.TRIANGLES : mode};
  }
  function sphere(seg) {
    const pos = [], idx = [];
    for (let i = 0; i <= seg; i++) for (let j = 0; j <= seg * 2; j++) {
      const th = i * Math.PI / seg, ph = j * Math.PI / seg;
      pos.push(Math.sin(th) * Math.cos(ph), Math.cos(th), Math.sin(th) * Math.sin(ph));
    }
    for (let i = 0; i < seg; i++) for (let j = 0; j < seg * 2; j++) {
      const a = i * (seg * 2 + 1) + j, b = a + seg * 2 + 1; idx.push(a, b, a + 1, b, b + 1, a + 1);
    }
    return mesh(pos, pos, idx);
  }
  function cylinder(seg) {
    const pos = [], nor = [], idx = [];
    for (let j = 0; j <= seg; j++) { const a = j * 2 * Math.PI / seg, c = Math.cos(a), s = Math.sin(a); pos.push(c, s, 0, c, s, 1); nor.push(c, s, 0, c, s, 0); }
    for (let j = 0; j < seg; j++) { const a = j * 2; idx.push(a, a + 1, a + 2, a + 1, a + 3, a + 2); }
    return mesh(pos, nor, idx);
  }
  function ring(seg) {
    const pos = [], idx = [];
    for (let j = 0; j < seg; j++) { const a = j * 2 * Math.PI / seg; pos.push(Math.cos(a), 0, Math.sin(a)); idx.push(j); }
    return mesh(pos, pos, idx, gl.LINE_LOOP);
  }
  function draw(m, model, vp, color, glow) {
    gl.bindBuffer(gl.ARRAY_BUFFER, m.p); gl.enableVertexAttribArray(at.p); gl.vertexAttribPointer(at.p, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, m.n); gl.enableVertexAttribArray(at.n); gl.vertexAttribPointer(at.n, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, m.i);
    gl.uniformMatrix4fv(un.vp, false, vp); gl.uniformMatrix4fv(un.model, false, model);
    gl.uniform3fv(un.color, color); gl.uniform1f(un.glow, glow || 0);
    gl.drawElements(m.mode, m.count, gl.UNSIGNED_SHORT, 0);
  }
  function clear(rgb) { gl.viewport(0, 0, canvas.width, canvas.height); gl.clearColor(rgb[0], rgb[1], rgb[2], 1); gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT); }
  return {gl, sphere, cylinder, ring, draw, clear};
}
function hexRgb(h) { const n = parseInt(h.slice(1), 16); return [(n >> 16 & 255) / 255, (n >> 8 & 255) / 255, (n & 255) / 255]; }
