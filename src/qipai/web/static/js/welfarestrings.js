// The texts of 福利 (the economy: 每日签到, 破产补助, 每日任务), [中文, English] as
// js/strings.js: merged into the client's strings by js/views/welfare.js.

export const WELFARE_STRINGS = {
  "welfare.title": ["福利", "Rewards"],
  "welfare.about": ["每日签到、每日任务，游戏币不足时可领破产补助", "Daily check-in, daily tasks, and relief when you run out of coins"],
  "welfare.checkin": ["签到 +{coins}", "Check in +{coins}"],
  "welfare.checkedIn": ["今日已签到", "Checked in today"],
  "welfare.streak": ["连续签到 {n} 天", "{n}-day streak"],
  "welfare.tomorrow": ["明日签到 +{coins}", "Tomorrow +{coins}"],
  "welfare.relief": ["领取破产补助 +{coins}", "Take relief +{coins}"],
  "welfare.reliefLeft": ["今日还可领 {n} 次", "{n} left today"],
  "welfare.reliefInfo": ["游戏币少于 {line} 时可领破产补助（今日还可领 {n} 次）", "Relief when you hold fewer than {line} coins ({n} left today)"],
  "welfare.broke": ["游戏币不足，无法进入房间：领取破产补助再来一局", "Too few coins for any room: take relief and play again"],
  "welfare.reliefNone": ["今日破产补助已领完，明天再来", "No relief left today: come back tomorrow"],
  "welfare.tasks": ["每日任务", "Daily tasks"],
  "welfare.claim": ["领取", "Claim"],
  "welfare.claimed": ["已领取", "Claimed"],
  "welfare.paid": ["获得 {coins} 游戏币", "+{coins} coins"],
  "error.already_checked_in": ["今天已经签到过了", "You have checked in today"],
  "error.not_broke": ["游戏币还够，暂不能领破产补助", "You still have enough coins for relief to wait"],
  "error.relief_used_up": ["今日破产补助已领完", "No relief left today"],
  "error.relief_not_allowed": ["游客或新账号不能领破产补助", "Guests and new accounts get no relief"],
  "error.in_hand": ["请在本局结束后再领", "Wait until your hand is over"],
  "error.task_not_done": ["任务还没完成", "The task is not done yet"],
  "error.task_claimed": ["奖励已领取", "Already claimed"],
  "error.unknown_task": ["今天没有这个任务", "No such task today"],
};
