%% Erlang twin of map_server.mr: a gen_server whose state is a map. Puts
%% answer the new size, gets an option, a snapshot reply carries the whole
%% map, a fetch of a missing key exits with {failure, Text} and the
%% waiting call exits with {Reason, {gen_server, call, _}}, mapped to
%% CallDown(reason) by morrow_obs:call/3. Keys are printed sorted.
-module(map_server).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).

-import(morrow_obs, [say/1, reason/1, call_result/1]).

main() -> morrow_obs:run(fun observer/0).

init(State) -> {ok, State}.

handle_call({put, K, V}, _From, M) ->
    Next = maps:put(K, V, M),
    {reply, maps:size(Next), Next};
handle_call({get, K}, _From, M) ->
    {reply, maps:find(K, M), M};
handle_call({delete, K}, _From, M) ->
    Next = maps:remove(K, M),
    {reply, maps:size(Next), Next};
handle_call(snapshot, _From, M) ->
    {reply, M, M};
handle_call({fetch, K}, _From, M) ->
    case maps:find(K, M) of
        {ok, V} -> {reply, V, M};
        error -> exit({failure, "no key " ++ K})
    end.

handle_cast(_, S) -> {noreply, S}.

handle_info(_, S) -> {noreply, S}.

option_text({ok, {ok, N}}) -> ["Some(", integer_to_list(N), ")"];
option_text({ok, error}) -> "None";
option_text(_) -> "error".

keys_text(M) ->
    lists:join(",", [[K, "=", integer_to_list(maps:get(K, M))] || K <- lists:sort(maps:keys(M))]).

observer() ->
    {ok, S} = gen_server:start(?MODULE, #{}, []),
    Ref = erlang:monitor(process, S),
    say(["put b: ", call_result(morrow_obs:call(S, {put, "b", 2}, 5000))]),
    say(["put a: ", call_result(morrow_obs:call(S, {put, "a", 1}, 5000))]),
    say(["put a again: ", call_result(morrow_obs:call(S, {put, "a", 10}, 5000))]),
    say(["get a: ", option_text(morrow_obs:call(S, {get, "a"}, 5000))]),
    say(["get z: ", option_text(morrow_obs:call(S, {get, "z"}, 5000))]),
    {ok, First} = morrow_obs:call(S, snapshot, 5000),
    say(["delete a: ", call_result(morrow_obs:call(S, {delete, "a"}, 5000))]),
    say(["delete a again: ", call_result(morrow_obs:call(S, {delete, "a"}, 5000))]),
    say(["put c: ", call_result(morrow_obs:call(S, {put, "c", 3}, 5000))]),
    {ok, Second} = morrow_obs:call(S, snapshot, 5000),
    say(["first snapshot: ", integer_to_list(maps:size(First)), " entries: ", keys_text(First)]),
    say(["second snapshot: ", integer_to_list(maps:size(Second)), " entries: ", keys_text(Second)]),
    say(["snapshots equal: ", morrow_obs:bool(First =:= Second)]),
    say(["fetch c: ", call_result(morrow_obs:call(S, {fetch, "c"}, 5000))]),
    say(["fetch q: ", call_result(morrow_obs:call(S, {fetch, "q"}, 5000))]),
    receive {'DOWN', Ref, process, _, R} -> say(["server down ", reason(R)]) end.
