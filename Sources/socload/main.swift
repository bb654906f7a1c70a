print("socload")
