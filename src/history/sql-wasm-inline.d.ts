// sql.js's build with the WASM inlined: nothing to locate at run time, in dist/ or the Action.
declare module 'sql.js/dist/sql-wasm-inline.js' {
  import initSqlJs from 'sql.js';
  export default initSqlJs;
}
