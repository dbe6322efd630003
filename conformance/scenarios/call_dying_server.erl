%% Erlang twin of call_dying_server.mr: calls waiting on a gen_server that
%% dies all exit with {Reason, {gen_server, call, _}}, mapped to
%% CallDown(reason) by morrow_obs:call/3: a registered server killed by a
%% third process (its name is gone after the DOWN), a server that dies
%% through a link, and a server that stops with shutdown while another
%% call waits.
-module(call_dying_server).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).

-import(morrow_obs, [say/1, reason/1, call_result/1, option/1]).

main() -> morrow_obs:run(fun observer/0).

init({Observer, none}) -> {ok, Observer};
init({Observer, Partner}) ->
    true = link(Partner),
    {ok, Observer}.

handle_call(wait, _From, Observer) ->
    Observer ! waiting,
    {noreply, Observer};
handle_call({stop, Reason}, _From, _Observer) ->
    exit(Reason).

handle_cast(_, S) -> {noreply, S}.

handle_info(_, S) -> {noreply, S}.

server(Observer, Partner) ->
    {ok, Pid} = gen_server:start(?MODULE, {Observer, Partner}, []),
    Pid.

partner() ->
    receive {leave, Reason} -> exit(Reason) end.

start_caller(Observer, N, S) ->
    spawn(fun() ->
                  R = morrow_obs:call(S, wait, 60000),
                  Observer ! {outcome, N, call_result(R)}
          end).

waiting() ->
    receive waiting -> ok end.

outcome(N) ->
    receive {outcome, N, Text} -> say(["call ", integer_to_list(N), ": ", Text]) end.

observer() ->
    Me = self(),
    S1 = server(Me, none),
    ok = morrow_obs:register("srv", S1),
    {some, Srv} = morrow_obs:whereis("srv"),
    start_caller(Me, 1, Srv),
    start_caller(Me, 2, Srv),
    waiting(),
    waiting(),
    M1 = erlang:monitor(process, S1),
    true = exit(S1, kill),
    outcome(1),
    outcome(2),
    receive {'DOWN', M1, process, _, R1} -> say(["server down ", reason(R1)]) end,
    say(["whereis srv after the down: ", option(morrow_obs:whereis("srv"))]),
    P = spawn(fun partner/0),
    S2 = server(Me, P),
    start_caller(Me, 3, S2),
    waiting(),
    P ! {leave, {failure, "partner"}},
    outcome(3),
    S3 = server(Me, none),
    start_caller(Me, 4, S3),
    waiting(),
    say(["stop: ", call_result(morrow_obs:call(S3, {stop, shutdown}, 60000))]),
    outcome(4).
