%% morrow_echo: the BEAM side of the echo benchmark (bench/echo): a line
%% echo server with gen_tcp in {active, once} mode, one process per
%% connection, as bench/echo/echo_server.mr. It prints its port and
%% serves until it is stopped.
%%
%% Usage: erl -noshell +S 1:1 -pa DIR -run morrow_echo main
-module(morrow_echo).
-export([main/0, main/1]).

main() -> main([]).

main(_) ->
    {ok, L} = gen_tcp:listen(0, [binary, {packet, line}, {active, false},
                                 {reuseaddr, true}, {ip, {127, 0, 0, 1}},
                                 {recbuf, 65536}, {backlog, 1024}]),
    {ok, Port} = inet:port(L),
    io:format("listening on port ~b~n", [Port]),
    accept(L).

accept(L) ->
    {ok, S} = gen_tcp:accept(L),
    Pid = spawn(fun() -> receive go -> ok end, inet:setopts(S, [{active, once}]), loop(S) end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    accept(L).

loop(S) ->
    receive
        {tcp, S, Line} ->
            gen_tcp:send(S, Line),
            inet:setopts(S, [{active, once}]),
            loop(S);
        {tcp_closed, S} -> ok;
        {tcp_error, S, _} -> ok
    end.
