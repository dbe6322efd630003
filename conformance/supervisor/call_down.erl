%% Erlang twin of call_down.mr: a typed call gets its reply; a server that
%% dies while the call waits gives CallDown with its exit reason (never a
%% timeout); a server already dead gives CallRejected(3); a call that times
%% out gives CallTimeout and the late reply is dropped.
-module(call_down).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).

-import(morrow_obs, [say/1, call_result/1]).

main() -> morrow_obs:run(fun observer/0).

init(Observer) -> {ok, {Observer, none}}.

handle_call({add, N}, _From, S) -> {reply, N + 1, S};
handle_call({crash, Reason}, _From, _S) -> exit(Reason);
handle_call(late, From, {Observer, _}) -> {noreply, {Observer, From}}.

handle_cast(_, S) -> {noreply, S}.

handle_info(go, {Observer, From}) ->
    gen_server:reply(From, 7),
    Observer ! replied,
    {noreply, {Observer, none}}.

server() ->
    {ok, Pid} = gen_server:start(?MODULE, self(), []),
    Pid.

observer() ->
    S1 = server(),
    say(["add 41: ", call_result(morrow_obs:call(S1, {add, 41}, -1))]),
    say(["crash fault: ", call_result(morrow_obs:call(S1, {crash, {fault, 3}}, -1))]),
    say(["add to the dead server: ", call_result(morrow_obs:call(S1, {add, 1}, 1000))]),
    S2 = server(),
    say(["crash normal: ", call_result(morrow_obs:call(S2, {crash, normal}, 5000))]),
    S3 = server(),
    say(["crash detail: ", call_result(morrow_obs:call(S3, {crash, {shutdown, "bye"}}, 5000))]),
    S4 = server(),
    say(["late: ", call_result(morrow_obs:call(S4, late, 50))]),
    S4 ! go,
    receive replied -> ok end,
    receive
        Other -> say(["unexpected message ", io_lib:format("~0p", [Other])])
    after 0 -> say("no late reply")
    end,
    say(["add after the timeout: ", call_result(morrow_obs:call(S4, {add, 1}, -1))]),
    say(["crash kill: ", call_result(morrow_obs:call(S4, {crash, kill}, -1))]).
