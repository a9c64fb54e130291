/**
 * The main nginx configuration the tools that run nginx beside the app write (the proxy test,
 * `deno task two-machines`): everything nginx writes kept in `dir`, no access log, and the
 * server block of docs/operations.md included from `dir`/lambda.conf.
 */
export function nginxMainConf(dir: string, workerConnections: number): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections ${workerConnections}; }
http {
    access_log off;
    client_body_temp_path ${dir}/tmp-body;
    proxy_temp_path ${dir}/tmp-proxy;
    fastcgi_temp_path ${dir}/tmp-fastcgi;
    uwsgi_temp_path ${dir}/tmp-uwsgi;
    scgi_temp_path ${dir}/tmp-scgi;
    include ${dir}/lambda.conf;
}
`;
}
