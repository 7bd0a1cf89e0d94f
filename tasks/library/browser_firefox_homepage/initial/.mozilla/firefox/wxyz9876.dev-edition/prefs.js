// Mozilla User Preferences
user_pref("browser.download.dir", "/home/agent/Downloads");
user_pref("privacy.donottrackheader.enabled", true);
